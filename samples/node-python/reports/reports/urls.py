from django.urls import path

from dashboards import views

urlpatterns = [
    path("reports/daily/", views.daily),
    path("reports/customers/<int:customer_id>/", views.customer),
]
