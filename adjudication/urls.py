app_name = "adjudication"
urlpatterns: list = []
