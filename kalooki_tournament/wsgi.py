import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kalooki_tournament.settings")
application = get_wsgi_application()

# With a shared cache (Redis), the hall's pages kept there are sent before Django makes a request of
# them (scoring.page_cache, "the rush's pages before Django"). Imported once Django is set up.
from scoring.page_cache import serve_kept_pages_first  # noqa: E402

application = serve_kept_pages_first(application)
