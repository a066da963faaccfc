"""The pages' bundled font holds every Chinese character the project writes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "assistant" / "static" / "fonts"
# Where the text the pages show is written: the pages themselves, the announcements and state
# texts, the rules' and tracker's reasons and names.
SOURCES = ("assistant", "rules", "tracker")
SUFFIXES = {".py", ".js", ".html", ".css", ".toml"}
CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def chinese_characters_written() -> set[str]:
    found: set[str] = set()
    for source in SOURCES:
        for path in (ROOT / source).rglob("*"):
            if path.suffix in SUFFIXES and path.is_file():
                found.update(CHINESE.findall(path.read_text(encoding="utf-8")))
    return found


def subset_characters() -> set[str]:
    return set((FONTS / "chars.txt").read_text(encoding="utf-8")) - {"\n"}


def test_every_chinese_character_the_project_writes_is_in_the_subset() -> None:
    written = chinese_characters_written()
    assert len(written) > 200  # the scan found the pages' text
    assert not written - subset_characters(), "add them to chars.txt and cut the fonts again"


def test_the_subset_holds_common_hanzi_for_players_names() -> None:
    names = "张伟王芳李强刘洋陈静杨磊赵敏黄勇周杰吴霞徐涛孙丽马超朱琳胡斌郭亮何娟高峰林燕罗鹏"
    assert not set(names) - subset_characters()


@pytest.mark.parametrize("weight", ["Regular", "Bold"])
def test_each_font_file_covers_the_subset(weight: str) -> None:
    font = TTFont(FONTS / f"GoujiSans-{weight}.woff2")   # WOFF2: read with brotli
    covered = {chr(code) for code in font.getBestCmap()}
    assert not subset_characters() - covered


def test_the_fonts_licence_ships_beside_them() -> None:
    licence = (FONTS / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Adobe" in licence
