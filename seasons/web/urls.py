from seasons.web import leagues, players, seeding

urlpatterns = [*players.urlpatterns, *leagues.urlpatterns]
urlpatterns += seeding.urlpatterns
