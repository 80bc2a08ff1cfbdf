"""Every rule id the product cites is written down in the repo: the ids in the code, the web page
and the errors (`PH-6.4`, `MC-3.2`, `TB-2.5`) are rules of `docs/rules/`, and every game rule
there is on the web rules page, in each of its languages (test_web_table checks the same in the
browser)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"\b(?:PH|MC|TB)-\d+(?:\.\d+)?\b")
CITED_IN = ("domain", "projections", "service", "bench")


def _documented() -> set[str]:
    ids: set[str] = set()
    for doc in (ROOT / "docs" / "rules").glob("*.md"):
        for line in doc.read_text().splitlines():
            # a rule is a table row "| PH-6.4 | …" or a section heading "## PH-6 Claims"
            row = re.match(r"\|\s*((?:PH|MC|TB)-\d+(?:\.\d+)?)\s*\|", line)
            head = re.match(r"#+\s*((?:PH|MC|TB)-\d+)\b", line)
            for m in (row, head):
                if m:
                    ids.add(m.group(1))
    return ids


def _cited() -> dict[str, str]:
    cited: dict[str, str] = {}
    for top in CITED_IN:
        for path in (ROOT / top).rglob("*"):
            if path.suffix not in (".py", ".js", ".lua") or "__pycache__" in path.parts:
                continue
            for rule in RULE_ID.findall(path.read_text(encoding="utf-8")):
                cited.setdefault(rule, str(path.relative_to(ROOT)))
    return cited


def test_every_cited_rule_id_is_a_documented_rule():
    documented = _documented()
    assert len(documented) > 80  # the three rule files are there
    missing = {rule: where for rule, where in _cited().items() if rule not in documented}
    assert missing == {}, missing


def _rules_page_languages() -> dict[str, list[str]]:
    """The rule ids each of the rules pages' texts lists (`const TB_FI = {…}`: the table rules in
    Finnish), in page order: every rule id that opens an item `["TB-2.5", "…"]`. The table rules
    are in web/rules.js, each game's in its folder's rules.js."""
    web = ROOT / "service" / "http" / "web"
    found = {}
    for path in (web / "rules.js", *sorted((web / "games").glob("*/rules.js"))):
        page = path.read_text(encoding="utf-8")
        blocks = re.findall(r"^const ((?:PH|MC|TB)_[A-Z]{2}) = \{$(.*?)^\};$", page, re.MULTILINE | re.DOTALL)
        for name, body in blocks:
            assert name not in found, f"{name} twice"
            found[name] = re.findall(r'\["((?:PH|MC|TB)-\d+(?:\.\d+)?)",', body)
    return found


def test_every_game_rule_in_the_docs_is_on_the_web_rules_page():
    """Every sub-rule of docs/rules (the PH and MC game rules and the TB table rules) is an item of
    the web rules page, in each of its languages, and the page lists no rule the docs lack."""
    documented = _documented()
    languages = _rules_page_languages()
    codes = {name.split("_")[1] for name in languages}
    assert {"EN", "PT", "NL", "AR", "FI"} <= codes, codes
    for prefix in ("PH", "MC", "TB"):
        sub_rules = {rule for rule in documented if rule.startswith(prefix + "-") and "." in rule}
        assert sub_rules, prefix
        for code in codes:
            listed = languages.get(f"{prefix}_{code}")
            assert listed is not None, f"{prefix} rules missing in {code}"
            assert sub_rules - set(listed) == set(), (prefix, code)
            assert set(listed) - documented == set(), (prefix, code)
            assert len(listed) == len(set(listed)), (prefix, code)
            assert all(rule.startswith(prefix + "-") for rule in listed), (prefix, code)


def test_the_code_cites_the_repo_not_the_team_workspace():
    """Design and rules live in `docs/`; nothing points at files outside the repository."""
    stale = []
    tops = (*CITED_IN, "tests", "docs")
    paths = [ROOT / "README.md", *(p for top in tops for p in (ROOT / top).rglob("*"))]
    for path in paths:
        if path.suffix not in (".py", ".js", ".md", ".lua", ".html") or "__pycache__" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        if "../shared" in text or "shared/rules" in text or "DESIGN.md" in text:
            stale.append(str(path.relative_to(ROOT)))
    assert stale == [str(Path("tests/unit/test_rule_ids.py"))], stale
