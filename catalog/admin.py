from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.db import transaction
from django.http import HttpRequest
from django.utils.html import format_html

from catalog import cache_version, changes, facts, images
from catalog.loading import CARD_FIELDS
from catalog.models import Card, CardChange, CardImage, CardSet, rebuild_search_keys
from webutil.bounds import accepts


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "order"]
    ordering = ["order"]


class CardImageForm(forms.ModelForm):
    """The picture is checked and cleaned in clean_upload, before anything reaches the disk."""

    upload = forms.FileField(
        required=False,
        help_text=f"JPEG, PNG, WebP or HEIC; at most {images.IMAGE.shown} and {images.MAX_PIXELS // 1_000_000} "
        "megapixels. Stored as WebP without metadata.",
    )

    class Meta:
        model = CardImage
        fields = ["card", "side"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cleaned_image: images.CleanImage | None = None
        self.fields["upload"].required = self.instance.pk is None

    def clean_upload(self) -> Any:
        upload = self.cleaned_data.get("upload")
        if upload:
            try:
                self.cleaned_image = images.clean_upload(upload)
            except images.ImageRejected as exc:
                raise ValidationError(str(exc)) from None
        return upload


def save_card_image(obj: CardImage, form: CardImageForm) -> None:
    if form.cleaned_image is not None:
        images.store(obj, form.cleaned_image)
    else:
        obj.save()
        transaction.on_commit(cache_version.bump)


def preview(obj: CardImage) -> str:
    if not obj.pk or not obj.thumbnails:
        return "—"
    smallest = min(obj.thumbnails.items(), key=lambda item: int(item[0]))[1]
    return format_html('<img src="{}" alt="" style="height:6rem">', default_storage.url(smallest))


class CardImageInline(admin.TabularInline):
    model = CardImage
    form = CardImageForm
    extra = 0
    max_num = 2
    fields = ["side", "upload", "picture", "width", "height"]
    readonly_fields = ["picture", "width", "height"]

    @admin.display(description="Picture")
    def picture(self, obj: CardImage) -> str:
        return preview(obj)


@accepts(images.IMAGE)
@admin.register(CardImage)
class CardImageAdmin(admin.ModelAdmin):
    form = CardImageForm
    list_display = ["card", "side", "picture", "width", "height", "uploaded_at"]
    list_select_related = ["card"]
    autocomplete_fields = ["card"]
    readonly_fields = ["picture", "width", "height"]
    search_fields = ["card__code", "card__name"]

    @admin.display(description="Picture")
    def picture(self, obj: CardImage) -> str:
        return preview(obj)

    def save_model(self, request: HttpRequest, obj: CardImage, form: Any, change: bool) -> None:
        save_card_image(obj, form)


@accepts((images.IMAGE, 2))
@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "set", "kind", "cost", "power", "health", "life", "tier", "stars"]
    list_filter = ["set", *(fact.name for fact in facts.FILTERS if fact.kind != facts.TEXT)]
    search_fields = ["code", "name", "name_simplified", "pinyin_key", "text"]
    readonly_fields = (*Card.DERIVED_FIELDS, "provenance", "aliases")
    list_select_related = ["set"]
    inlines = [CardImageInline]

    def save_model(self, request: HttpRequest, obj: Card, form: Any, change: bool) -> None:
        if change:
            # A maintainer's correction joins the card's history, like a reviewed contribution.
            stored = Card.objects.select_for_update().get(pk=obj.pk)
            values = {f: getattr(obj, f) for f in CARD_FIELDS if getattr(stored, f) != getattr(obj, f)}
            changes.apply_change(stored, values, source=CardChange.Source.ADMIN, reviewer=request.user)
            obj.provenance, obj.aliases = stored.provenance, stored.aliases
        # A maintainer's correction must refresh the search keys and every cached answer.
        obj.compute_derived()
        super().save_model(request, obj, form, change)
        rebuild_search_keys([obj])
        transaction.on_commit(cache_version.bump)  # once the correction is visible to every reader

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not CardImage:
            return super().save_formset(request, form, formset, change)
        formset.save(commit=False)
        for obj in formset.deleted_objects:
            obj.delete()
        for image_form in formset.forms:
            if image_form in formset.deleted_forms or not image_form.has_changed():
                continue
            image_form.instance.card = form.instance
            save_card_image(image_form.instance, image_form)
