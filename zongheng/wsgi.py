import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zongheng.settings")
application = get_wsgi_application()

# The URL configuration imports every view, form and template tag library. Loaded now, with the
# rest moved out of the garbage collector's sight (gc.freeze), a full collection no longer walks
# the hundreds of thousands of objects that live as long as the process: those passes were the
# slowest requests' extra tens of milliseconds.
from django.urls import get_resolver  # noqa: E402

get_resolver().url_patterns  # noqa: B018 (imported for its side effect: every app's views)
gc.freeze()
