"""Version notes were stored in the words of whoever saved them (建立, created, 创建…); they are
codes now, shown in the reader's language. Known words of the three languages become codes."""

import re

from django.db import migrations

WORDS = {
    "created": ("建立", "创建", "created"),
    "settings": ("設定", "设置", "设定", "settings"),
    "imported": ("匯入", "导入", "汇入", "imported"),
    "cloned": ("複製", "复制", "拷贝", "cloned"),
}
RESTORED = re.compile(r"^(?:還原自第|还原自第|restored v) ?(\d+)(?: 版)?$")


def to_codes(apps, schema_editor):  # type: ignore[no-untyped-def]
    DeckVersion = apps.get_model("decks", "DeckVersion")
    for code, words in WORDS.items():
        DeckVersion.objects.filter(note__in=words).update(note=code)
    for version in DeckVersion.objects.exclude(note="").exclude(note__in=[*WORDS, "builder", "api"]).iterator():
        match = RESTORED.match(version.note)
        if match:
            version.note = f"restored:{match.group(1)}"
            version.save(update_fields=["note"])


class Migration(migrations.Migration):
    dependencies = [("decks", "0008_needs_over_index")]

    operations = [migrations.RunPython(to_codes, migrations.RunPython.noop)]
