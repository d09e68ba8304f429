"""API: your notification settings and push subscriptions; a club's webhooks and their
delivery log (its owners and organisers)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, StrictInput, path_int, valid
from notifications import selectors
from notifications.models import PLAYER_TOPIC_CHOICES, Notification, Topic, Webhook, WebhookFormat
from notifications.services import preferences, push, webhooks
from tournaments.models import Club
from tournaments.selectors import policies


class PreferencesSerializer(StrictInput):
    email_topics = serializers.ListField(
        child=serializers.ChoiceField(choices=PLAYER_TOPIC_CHOICES), max_length=20
    )
    push_topics = serializers.ListField(
        child=serializers.ChoiceField(choices=PLAYER_TOPIC_CHOICES), max_length=20
    )


class PreferencesView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={200: PreferencesSerializer, **ERRORS}, summary="What you are notified of"
    )
    def get(self, request: Request) -> Response:
        email, push_topics = preferences.current(request.user)
        return Response({"email_topics": email, "push_topics": push_topics})

    @extend_schema(
        request=PreferencesSerializer,
        responses={200: PreferencesSerializer, **ERRORS},
        summary="Choose what you are notified of, by channel",
    )
    def put(self, request: Request) -> Response:
        data = valid(PreferencesSerializer, request.data)
        pref = preferences.choose(
            actor=request.user,
            email_topics=data["email_topics"],
            push_topics=data["push_topics"],
        )
        return Response({"email_topics": pref.email_topics, "push_topics": pref.push_topics})


class KeysInput(StrictInput):
    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=100)


class SubscriptionInput(StrictInput):
    endpoint = serializers.CharField(max_length=1000)
    keys = KeysInput()
    expirationTime = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=2**53
    )


class EndpointInput(StrictInput):
    endpoint = serializers.CharField(max_length=1000)


class SubscriptionOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    endpoint = serializers.CharField()


class VapidKeyOutput(serializers.Serializer[Any]):
    public_key = serializers.CharField(help_text="applicationServerKey, base64url")


class PushKeyView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: VapidKeyOutput}, summary="The server's web push key (VAPID, public)"
    )
    def get(self, request: Request) -> Response:
        return Response({"public_key": push.vapid_keys()[1]})


class PushSubscriptionsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=SubscriptionInput,
        responses={201: SubscriptionOutput, **ERRORS},
        summary="Receive push notifications in this browser (its PushSubscription)",
    )
    def post(self, request: Request) -> Response:
        data = valid(SubscriptionInput, request.data)
        sub = push.subscribe(
            actor=request.user,
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
            user_agent=request.headers.get("User-Agent", ""),
        )
        return Response({"id": sub.pk, "endpoint": sub.endpoint}, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=EndpointInput,
        responses={204: None, **ERRORS},
        summary="Stop push notifications in a browser of yours",
    )
    def delete(self, request: Request) -> Response:
        data = valid(EndpointInput, request.data)
        push.unsubscribe(actor=request.user, endpoint=data["endpoint"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookInput(StrictInput):
    url = serializers.CharField(max_length=500)
    format = serializers.ChoiceField(choices=WebhookFormat.choices, default=WebhookFormat.JSON)
    topics = serializers.ListField(
        child=serializers.ChoiceField(choices=Topic.choices), max_length=20, required=False
    )


class WebhookChange(StrictInput):
    url = serializers.CharField(max_length=500, required=False)
    format = serializers.ChoiceField(choices=WebhookFormat.choices, required=False)
    topics = serializers.ListField(
        child=serializers.ChoiceField(choices=Topic.choices), max_length=20, required=False
    )
    active = serializers.BooleanField(required=False)
    new_secret = serializers.BooleanField(required=False, help_text="Make a new secret.")


class WebhookOutput(serializers.ModelSerializer[Webhook]):
    class Meta:
        model = Webhook
        fields = ["id", "url", "format", "topics", "active", "secret", "created_at"]


class DeliveryOutput(serializers.ModelSerializer[Notification]):
    event = serializers.CharField(source="event.kind")
    message = serializers.CharField(source="event.message")

    class Meta:
        model = Notification
        fields = [
            "id",
            "key",
            "event",
            "message",
            "status",
            "attempts",
            "due_at",
            "sent_at",
            "response_status",
            "last_error",
            "created_at",
        ]


def _club(request: Request, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    policies.require_manager(request.user, club, doing="see its webhooks")
    return club


class WebhookListView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: WebhookOutput(many=True), **ERRORS}, summary="A club's webhooks")
    def get(self, request: Request, slug: str) -> Response:
        club = _club(request, slug)
        return Response(WebhookOutput(selectors.club_webhooks(club), many=True).data)

    @extend_schema(
        request=WebhookInput,
        responses={201: WebhookOutput, **ERRORS},
        summary="Add a webhook (a public http(s) address; JSON signed, Discord or Slack)",
    )
    def post(self, request: Request, slug: str) -> Response:
        club = _club(request, slug)
        data = valid(WebhookInput, request.data)
        hook = webhooks.add_webhook(
            actor=request.user,
            club=club,
            url=data["url"],
            format=data["format"],
            topics=data.get("topics", []),
        )
        return Response(WebhookOutput(hook).data, status=status.HTTP_201_CREATED)


class WebhookDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def _hook(self, request: Request, slug: str, pk: str) -> Webhook:
        return get_object_or_404(Webhook, club=_club(request, slug), pk=path_int(pk))

    @extend_schema(
        request=WebhookChange,
        responses={200: WebhookOutput, **ERRORS},
        summary="Change a webhook: its address, format, topics, paused or not, a new secret",
    )
    def patch(self, request: Request, slug: str, pk: str) -> Response:
        hook = self._hook(request, slug, pk)
        data = valid(WebhookChange, request.data)
        hook = webhooks.change_webhook(actor=request.user, webhook=hook, **data)
        return Response(WebhookOutput(hook).data)

    @extend_schema(responses={204: None, **ERRORS}, summary="Remove a webhook")
    def delete(self, request: Request, slug: str, pk: str) -> Response:
        webhooks.remove_webhook(actor=request.user, webhook=self._hook(request, slug, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookLogView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={200: DeliveryOutput(many=True), **ERRORS},
        summary="A webhook's latest deliveries (50), newest first",
    )
    def get(self, request: Request, slug: str, pk: str) -> Response:
        hook = get_object_or_404(Webhook, club=_club(request, slug), pk=path_int(pk))
        return Response(DeliveryOutput(selectors.webhook_log(hook), many=True).data)
