"""render/draft.py: typed holes in a page draft. A template prints a hole's marker; `Holes.draft` splits the text at
the markers at once, so the draft is text and hole objects in order, and the components a page mounts are read from
its text. Drafts built here from strings, no template."""
from pathlib import Path

from markupsafe import Markup

from lessonkit.render.draft import HEAD, POLICY, SCRIPTS, STYLE, CodeHole, FigureDataHole, FigureHole, Holes


def test_a_hole_has_one_marker_and_different_holes_different_ones():
    holes = Holes(nonce="abc")
    curve = holes.mark(FigureHole("demo", "curve"))
    assert isinstance(curve, Markup)              # printed by a template as it is, never escaped
    assert curve == "<!--lk-abc-0-->"
    assert holes.mark(FigureHole("demo", "curve")) == curve             # the same hole (equal dataclass)
    assert holes.mark(FigureHole("other", "curve")) == "<!--lk-abc-1-->"
    assert holes.mark(STYLE) == "<!--lk-abc-2-->"
    assert holes.known == [FigureHole("demo", "curve"), FigureHole("other", "curve"), STYLE]


def test_draft_splits_text_and_holes_in_order():
    holes = Holes(nonce="n1")
    curve, data = FigureHole("demo", "curve"), FigureDataHole("demo", "curve", "fig-curve", 1)
    text = f"<head>{holes.mark(HEAD)}</head><p>{holes.mark(curve)}{holes.mark(data)}</p>{holes.mark(curve)}"
    draft = holes.draft(text, "demo/index.html", "lesson.html", Path("content/demo"))
    assert draft.parts == ("<head>", HEAD, "</head><p>", curve, data, "</p>", curve)   # no empty strings between
    assert draft.figures() == [curve, curve]
    assert (draft.path, draft.template, draft.lesson_folder) == ("demo/index.html", "lesson.html", Path("content/demo"))


def test_text_without_holes_is_one_part_and_an_empty_page_none():
    holes = Holes(nonce="n2")
    assert holes.draft("<p>plain</p>", "index.html", "index.html").parts == ("<p>plain</p>",)
    assert holes.draft("", "index.html", "index.html").parts == ()


def test_another_builds_marker_is_only_text():
    ours, theirs = Holes(nonce="aaa"), Holes(nonce="bbb")
    foreign = theirs.mark(POLICY)
    ours.mark(POLICY)
    assert ours.draft(f"x{foreign}y", "p.html", "t.html").parts == (f"x{foreign}y",)


def test_each_build_has_its_own_nonce():
    assert Holes().nonce != Holes().nonce and len(Holes().nonce) == 12


def test_components_are_the_widget_kinds_in_the_text_sorted_once_each():
    holes = Holes(nonce="n3")
    text = ('<div data-widget="toggle" id="toggle-1"></div>' + str(holes.mark(SCRIPTS))
            + '<div data-widget="explorer"></div><div data-widget="toggle"></div><p>data-widget="quoted"</p>'
            + '<span data-widget-data="x"></span>')
    assert holes.draft(text, "p.html", "t.html").components == ("explorer", "toggle")


def test_what_a_draft_carries_beside_its_text():
    holes = Holes(nonce="n4")
    draft = holes.draft("x", "index.html", "index.html", script_sources=("'self'",),
                        files=(("search.js", "var x;"),))
    assert draft.script_sources == ("'self'",) and draft.files == (("search.js", "var x;"),)
    assert draft.lesson_folder is None and draft.figures() == []
    assert {HEAD.what, SCRIPTS.what, STYLE.what, POLICY.what} == {"head", "scripts", "style", "policy"}
    assert CodeHole("style") == STYLE
