"""See scoring/urls.py for the URL scheme."""

urlpatterns: list = []
