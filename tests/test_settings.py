"""A configuration file's settings (engine/backends/settings.py), each quoted on its own line under the
keys, blocks and section it sits in, with the comment above it; read by the extractive generator and the
answer check, and answered end to end."""

from __future__ import annotations

from pathlib import Path

from engine.answer.answerability import own_passage
from engine.api import Engine
from engine.backends.extractive import candidates
from engine.backends.settings import context, literals, quoted, settings, shown
from engine.events import Hit
from tests.conftest import index_with_notes, write

HELM = """\
replicaCount: 3

env:
  APP_ENV: prod
  # jobs processed in parallel per pod (threads)
  WORKER_CONCURRENCY: "8"

resources:
  limits:
    cpu: "2"
    # 4 gunicorn workers + headroom for the xlsx import path
    memory: 1536Mi

rules:
  - alert: JobQueueBacklog
    for: 20m
  - alert: JobDeadLetters
    for: 10m
"""

TERRAFORM = """\
# --- nightly pg_dump from bastion-1 ---
resource "aws_s3_bucket" "db_dumps" {
  bucket = "tallybird-prod-db-dumps"
}
"""

NGINX = """\
server {
    client_max_body_size 25m;
    # CSV exports stream for a long time on big accounts
    location /api/exports/ {
        proxy_read_timeout 120s;
    }
}
"""

TOML = """\
[api]
request_timeout_s = 30 ; the edge allows 60
"""


def said(text: str) -> list[str]:
    return [shown(s, text) for s in settings(text)]


def test_each_setting_is_shown_under_its_keys_with_the_comment_above_it() -> None:
    assert said(HELM) == [
        "replicaCount: 3",
        "env > APP_ENV: prod",
        'env > WORKER_CONCURRENCY: "8"  # jobs processed in parallel per pod (threads)',
        'resources > limits > cpu: "2"',
        "resources > limits > memory: 1536Mi  # 4 gunicorn workers + headroom for the xlsx import path",
        "rules > alert: JobQueueBacklog",
        "rules > alert: JobQueueBacklog > for: 20m",  # a list item's keys sit under the item they follow
        "rules > alert: JobDeadLetters",
        "rules > alert: JobDeadLetters > for: 10m",
    ]
    assert said(TERRAFORM) == ['resource "aws_s3_bucket" "db_dumps" > bucket = "tallybird-prod-db-dumps"']
    assert said(NGINX) == [
        "server > client_max_body_size 25m;",
        "server > location /api/exports/ > proxy_read_timeout 120s;",
    ]
    assert said(TOML) == ["api > request_timeout_s = 30 ; the edge allows 60"]
    # a quote is the setting's lines verbatim, the comment above it with it
    memory = next(s for s in settings(HELM) if "1536Mi" in HELM[s.start : s.end])
    assert HELM[memory.start : memory.end] == (
        "# 4 gunicorn workers + headroom for the xlsx import path\n    memory: 1536Mi"
    )


def test_a_setting_is_read_with_its_files_place_keys_and_the_comments_above_its_blocks() -> None:
    hit = Hit(1, "/srv/repo/helm/api/values-prod.yaml", 1, 19, None, "", HELM, 1.0)
    memory = next(s for s in settings(HELM) if "1536Mi" in HELM[s.start : s.end])
    assert context(memory, hit) == "helm api values prod yaml resources limits"
    bucket = Hit(1, "/srv/repo/terraform/s3.tf", 1, 4, None, "", TERRAFORM, 1.0)
    (only,) = settings(TERRAFORM)
    assert context(only, bucket).endswith("--- nightly pg_dump from bastion-1 ---")
    found = quoted('bucket = "tallybird-prod-db-dumps"', bucket, settings(TERRAFORM))
    assert found is not None and found[1] == only
    assert quoted("nightly pg_dump from bastion-1", bucket, [only]) is None  # a comment is no setting


def test_the_generator_quotes_a_configurations_settings_one_by_one_and_its_lone_comments_as_sentences() -> (
    None
):
    """Read as prose, a block of settings was one run-on sentence ("resources: limits: cpu: "2" memory:
    1536Mi"); each setting is now its own quote, and a comment about a block (not a setting) is a sentence
    of its own, as any code comment is."""
    hit = Hit(1, "/srv/repo/config/nginx/sites/app.conf", 1, 7, None, "", NGINX, 1.0)
    found = candidates([hit])
    assert [c.said for c in found] == [
        "server > client_max_body_size 25m;",
        "CSV exports stream for a long time on big accounts",
        "server > location /api/exports/ > proxy_read_timeout 120s;",
    ]
    assert found[2].text == "proxy_read_timeout 120s;"
    assert "app conf" in found[2].under and "location /api/exports/" in found[2].under
    # a file of another kind is read as before: its lines are no settings
    prose = Hit(1, "/srv/repo/notes.md", 1, 7, None, "", NGINX, 1.0)
    assert all(" > " not in c.said for c in candidates([prose]))


def test_a_question_about_a_value_is_answered_with_the_setting_that_holds_it(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "repo"
    write(root, "helm/worker/values-prod.yaml", HELM)
    write(
        root,
        "docs/runbook.md",
        "# Worker runbook\n\nRestart the worker with the deploy script if it hangs.\n",
    )
    index_with_notes(engine, root)
    answer = engine.ask("How much memory is the worker allowed in production?", "extractive")
    assert not answer.refused, answer.reason
    assert answer.text.startswith("resources > limits > memory: 1536Mi"), answer.text
    cited = answer.sentences[0].citations[0]
    assert (Path(cited.path).name, cited.start_line, cited.end_line) == ("values-prod.yaml", 11, 12)


def test_the_answer_check_reads_a_setting_or_a_tables_row_as_a_passage_of_its_own() -> None:
    """A chunk packs settings (or rows) about other things beside the one that answers, which dilute its
    cosine with the question: the check also reads the quote's own passage, a setting with its file's
    place and keys, a Markdown row under its columns' names; a sentence of prose has none."""
    helm = Hit(1, "/srv/repo/helm/api/values-prod.yaml", 1, 19, None, "", HELM, 1.0)
    said = "# 4 gunicorn workers + headroom for the xlsx import path\n    memory: 1536Mi"
    assert own_passage(said, helm) == f"helm api values prod yaml resources limits\n{said}"
    rota = "# Rota\n\n| week of | primary |\n|---|---|\n| 2025-11-17 | Elliot |\n| 2025-11-24 | Bex |\n"
    table = Hit(1, "/srv/repo/rota.md", 1, 6, None, "Rota", rota, 1.0)
    assert own_passage("2025-11-17 | Elliot", table) == "Rota\nweek of: 2025-11-17; primary: Elliot"
    prose = Hit(1, "/srv/repo/notes.md", 1, 1, None, "Notes", "Restart the worker if it hangs.", 1.0)
    assert own_passage("Restart the worker if it hangs.", prose) == ""


def test_sections_blocks_scalars_and_lines_without_a_value_are_read_as_their_formats_write_them() -> None:
    """Found by a review: an INI section with a colon ("[testenv:lint]") is a section; a lone "{" opens a
    block that its "}" closes, and "} else {" closes one and opens one; a YAML folded scalar's prose is
    one quote shown as it reads and a literal one's lines stay under its key; a line that states no
    value ("---", a heredoc's "EOF") is no setting; a setting shorter than a citation can place starts
    its quote at the line above."""
    tox = "[testenv]\ncommands = pytest\n\n[testenv:lint]\ncommands = ruff check engine\n"
    assert said(tox) == ["testenv > commands = pytest", "testenv:lint > commands = ruff check engine"]
    nginx = "http\n{\n    gzip on;\n}\nif ($x) {\n    return 404;\n} else {\n    return 200;\n}\nlisten 80;\n"
    assert said(nginx) == ["gzip on;", "if ($x) > return 404;", "else > return 200;", "listen 80;"]
    yaml = (
        "---\ninfo:\n  description: >\n    Lists invoices, at most 100 a page.\n"
        "  script: |\n    make test\n  version: 2\n"
    )
    found = settings(yaml, sections=False)
    assert [shown(s, yaml) for s in found] == [
        "Lists invoices, at most 100 a page.",  # prose, shown as it reads
        "info > script > make test",
        "info > version: 2",
    ]
    hit = Hit(1, "/srv/repo/openapi.yaml", 1, 7, None, "", yaml, 1.0)
    assert "Lists invoices, at most 100 a page." in [c.said for c in candidates([hit])]
    short = "replicas: 3\ncpu: 2\n"
    (_, cpu) = settings(short)
    assert short[cpu.start : cpu.end] == "replicas: 3\ncpu: 2" and short[cpu.line : cpu.end] == "cpu: 2"


TSCONFIG = """\
{
  "compilerOptions": {
    "target": "ES2017",
    // off here only: the grid indexes arrays everywhere
    "noUncheckedIndexedAccess": false,
    "lib": [
      "dom",
      "ES2022"
    ],
    "paths": {
      "@/*": ["./src/*"]
    }
  },
  "overrides": [
    {
      "files": ["apps/api/**/*.ts"],
      "rules": { "no-console": "error" }
    }
  ]
}
"""


def test_json_settings_are_read_under_their_keys_with_a_list_whole_and_a_listed_mapping_named() -> None:
    """package.json, tsconfig and linters' files are JSON: each key's value is a setting under the keys
    it is nested in, unquoted as shown, with the `//` comment above it; a short list over lines is one
    quote with its key; a mapping in a list is named by its first setting, what the rest apply to."""
    assert said(TSCONFIG) == [
        'compilerOptions > target: "ES2017"',
        "compilerOptions > noUncheckedIndexedAccess: false"
        "  # off here only: the grid indexes arrays everywhere",
        'compilerOptions > lib: [ "dom", "ES2022" ]',
        'compilerOptions > paths > @/*: ["./src/*"]',
        'overrides > files: ["apps/api/**/*.ts"]',
        'overrides > files: ["apps/api/**/*.ts"] > rules: { "no-console": "error" }',
    ]
    lib = next(s for s in settings(TSCONFIG) if '"lib"' in TSCONFIG[s.start : s.end])
    assert TSCONFIG[lib.start : lib.end] == '"lib": [\n      "dom",\n      "ES2022"\n    ],'  # verbatim


def test_a_json_file_is_read_as_settings_and_a_chat_export_saved_as_json_is_not() -> None:
    tsconfig = Hit(1, "/srv/repo/apps/web/tsconfig.json", 1, 20, None, "", TSCONFIG, 1.0)
    assert 'compilerOptions > target: "ES2017"' in [c.said for c in candidates([tsconfig])]
    rc = Hit(1, "/srv/repo/.prettierrc", 1, 3, None, "", '{\n  "printWidth": 100\n}\n', 1.0)
    assert [c.said for c in candidates([rc])] == ["printWidth: 100"]
    chat = "Ana Silva (2024-03-02 10:14): the deploy: done, rolled back at 10:20\n"
    export = Hit(1, "/srv/export/general/2024-03-02.json", 1, 1, None, "", chat, 1.0)
    assert all(" > " not in c.said and not c.under for c in candidates([export]))


def test_a_programs_constant_literal_is_read_as_settings_and_its_other_statements_as_before() -> None:
    """A business rule written as a constant's literal mapping: each entry a quote under the constant's
    name (not the whole statement, which no question about one plan could be told from); a function's
    body (`= () => {`) is no literal, and the file's other statements are proposed as before."""
    source = (
        "/** What each plan includes. */\n"
        "export const PLAN_LIMITS = {\n"
        "  STARTER: { staffSeats: 3, locations: 1 },\n"
        "  // the plan most studios buy\n"
        "  STUDIO: { staffSeats: 10, locations: 2 },\n"
        "} as const;\n"
        "export const handler = () => {\n"
        "  return limits.get(plan);\n"
        "};\n"
        "export const SUPPORT_EMAIL = 'help@example.com';\n"
    )
    assert [shown(s, source) for s in literals(source)] == [
        "PLAN_LIMITS > STARTER: { staffSeats: 3, locations: 1 }",
        "PLAN_LIMITS > STUDIO: { staffSeats: 10, locations: 2 }  # the plan most studios buy",
    ]
    hit = Hit(1, "/srv/app/src/constants.ts", 1, 10, None, "", source, 1.0)
    said = [c.said for c in candidates([hit])]
    assert "PLAN_LIMITS > STARTER: { staffSeats: 3, locations: 1 }" in said
    assert not any("STUDIO: { staffSeats: 10" in s and "STARTER" in s for s in said)  # not one statement
    assert any("SUPPORT_EMAIL" in s for s in said)
    notes = Hit(1, "/srv/app/notes.md", 1, 10, None, "", source, 1.0)  # prose: no settings read
    assert not any(s.startswith("PLAN_LIMITS >") for s in (c.said for c in candidates([notes])))


def test_what_a_review_found_in_reading_json_and_literals() -> None:
    """Found by a review: Terraform is read as settings still (it is also a program's source); a chat
    export whose passage opens on "[bot]" or a quoted name is no JSON; a bracket closing on a data line
    ends its block; a bracket in a string does not; a literal that holds code, or runs past its closing
    into the code after it, is read as before; a comment inside a literal stays a sentence; an rc file
    found by a Windows path is read, a shell's rc file is not."""
    tf = 'resource "aws_db_instance" "main" {\n  instance_class = "db.t3.medium"\n  storage = 100\n}\n'
    hit = Hit(1, "/srv/infra/main.tf", 1, 4, None, "", tf, 1.0)
    assert 'resource "aws_db_instance" "main" > storage = 100' in [c.said for c in candidates([hit])]
    chat = "[bot] deploybot (2024-03-02 10:14): deploy done\nAna Silva (2024-03-02 10:15): who approved it?\n"
    export = Hit(1, "/srv/export/ops/2024-03-02.json", 1, 2, None, "", chat, 1.0)
    assert not any(c.under for c in candidates([export]))
    nested = '{ "a": 1,\n  "b": {\n    "c": 2 },\n  "d": 3\n}\n'
    assert said(nested)[-1] == "d: 3"
    source = (
        'OPENERS = {\n    "paren": "(",\n}\n\n\ndef closes(ch):\n    """Whether ch closes a bracket."""\n'
        "    return PAIRS.get(ch)\n\n\nHANDLERS = {\n    'refund': lambda order: refund(order),\n}\n"
        "TAX = {\n    # Refunds go back to the original card within five working days.\n\n"
        "    'rate': 0.2,\n}\n"
    )
    code = Hit(1, "/srv/app/rules.py", 1, 19, None, "", source, 1.0)
    shown_ = [c.said for c in candidates([code])]
    assert 'OPENERS > paren: "("' in shown_ and "TAX > 'rate': 0.2" in shown_
    assert any("def closes(ch)" in s or "Whether ch closes a bracket" in s for s in shown_)
    assert not any(s.startswith("HANDLERS >") for s in shown_)  # code, not data
    assert "Refunds go back to the original card within five working days." in shown_
    windows = Hit(1, "C:\\repo\\.prettierrc", 1, 3, None, "", '{\n  "printWidth": 100\n}\n', 1.0)
    assert [c.said for c in candidates([windows])] == ["printWidth: 100"]
    bashrc = Hit(1, "/home/me/.bashrc", 1, 2, None, "", "export EDITOR=vim\nalias ll='ls -l'\n", 1.0)
    assert not any(c.under for c in candidates([bashrc]))
