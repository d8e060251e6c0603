"""Notifications by e-mail, sent by the worker (Django's e-mail backend: the console unless an
SMTP server is configured), never inside the request that caused them."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.utils import translation
from django_tasks import task

from people.models import Notification
from people.notices import text


@task()
def email_notification(notification_id: int) -> bool:
    notification = Notification.objects.select_related("recipient", "actor").filter(pk=notification_id).first()
    if notification is None or not notification.recipient.email:
        return False
    with translation.override(settings.LANGUAGE_CODE):
        line = text(notification)
    send_mail(line, f"{line}\n\n{notification.url}", None, [notification.recipient.email])
    return True
