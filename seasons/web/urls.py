from seasons.web import leagues, players

urlpatterns = [*players.urlpatterns, *leagues.urlpatterns]
