import os

import dj_database_url

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev")
DEBUG = False
ALLOWED_HOSTS = ["*"]
ROOT_URLCONF = "reports.urls"
INSTALLED_APPS = ["django.contrib.contenttypes", "dashboards"]
DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"])}
