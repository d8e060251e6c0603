"""A second step for permanent actions, without JavaScript: the first POST shows what will
happen and a button that sends the same form again with confirm=yes."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

CONFIRMED = "yes"


def unless_confirmed(
    request: HttpRequest,
    *,
    title: str,
    message: str,
    button: str,
    back: str,
    option: tuple[str, str] | None = None,
) -> HttpResponse | None:
    """None when the request carries confirm=yes; otherwise the page that asks for it. `option`
    (a field name and its label): a box, ticked, offering something more to do at once."""
    if request.POST.get("confirm") == CONFIRMED:
        return None
    fields = [
        (k, v)
        for k, values in request.POST.lists()
        if k not in ("confirm", "csrfmiddlewaretoken", "idempotency_key")
        for v in values
    ]
    context = {
        "title": title,
        "message": message,
        "button": button,
        "back": back,
        "fields": fields,
        "action": request.get_full_path(),
        "option": option,
    }
    return render(request, "confirm.html", context)
