"""The English words the answer check and the extractive generator read. One module, below both (the
generator may not import the answer pipeline), so that another language is one more module.

Each set is a closed grammatical class (question words, negations, ordinal suffixes), not vocabulary of
any collection: they say what kind of answer a question wants and whether it is negated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# A question holding one of these wants a figure, a date or an amount in its answer. A bare "when" does
# not: in technical text it asks for a condition ("when should I retry?") as often as for a date. In the
# past tense it asks for a time ("When was 1.5 released?", "When did the war end?"): of the fitted SQuAD
# articles' answerable questions so worded, 72 of 73 are answered with digits; of the other "when"
# questions, 5 of 47. A version or release asked for is a figure too.
WANTS_FIGURE = re.compile(
    r"\b(how (many|much|long|old|often|far|large|big|tall|high|fast)|what (year|percentage|percent|"
    r"number|amount|date|age|proportion|size)|in (what|which) (year|decade|century|month)|"
    r"when (was|were|did)|(what|which) (version|release))\b",
    re.IGNORECASE,
)
# ...one of these, a person's or an organisation's name. Not "where": in a folder of code and notes it
# asks for a file, a setting or a section as often as for a place.
WANTS_NAME = re.compile(r"\b(who|whom|whose)\b", re.IGNORECASE)
NEGATIONS = frozenset("not no never none nothing nobody neither nor without cannot n't".split())
# The negations that deny what a clause asserts ("is not used", "never ran", "can't"), not a noun's
# quantity ("no", "none") nor a circumstance ("without a key"); each denies the first word after it that is
# not a function word, within NEGATION_SCOPE words and before a comma or a stop ("was not even used":
# "used"; "weren't consumed by options": "consumed", not "options"): answerability.negation_scope.
VERBAL_NEGATIONS = frozenset("not never cannot".split())
NEGATION_SCOPE = 3
# A clause asking for a thing (what, which, who, when, where, how many, ...), not for an explanation (why,
# how): a negation in its own words asks for what is not so ("What type of law does not make states
# follow it?"), which only a sentence that negates can state.
ASKS_THING = re.compile(
    r"^\W*(?:what|which|who|whom|whose|when|where|how\s+(?:many|much|long|old|far|often))\b", re.IGNORECASE
)
# The words that open a clause within a clause, or join another: what follows them is not the asking
# clause's own ("What does it use if I don't pass one?", "Where are they kept, so that two don't clash?").
SUBORDINATORS = frozenset(
    "if when so because although though since while unless whether that which who whom where as than "
    "until before after once and or but to".split()
)
# What may open a question's clause before its question word ("And which files aren't indexed?")
OPENERS = frozenset("and so but then also".split())
# Who a question word's clause is about when it opens on the user's own doing ("When I don't say it,
# what happens?"): a condition, not a question
SPEAKERS = frozenset({"i", "we", "you"})
# A clause opening with one of these asks yes or no ("Does it never retry?", "Is it run before the
# hook?"): a quote saying either way answers it, so neither a denial nor an opposite it says counts
# against the quote.
POLAR = re.compile(
    r"^\W*(?:do|does|did|is|are|was|were|am|can|could|will|would|should|shall|may|might|must|has|have|"
    r"had)(?:n't)?\b",
    re.IGNORECASE,
)
# A question asking how, why or where something works or is done, its subject not the reader ("How does the
# runner capture output?", "Why is the parser its own?", "Where is the layout produced?"): in a folder of
# code the code is what answers it. Not a question about what the reader does ("How do I...", "Where should
# we..."), which the documentation answers.
ASKS_MECHANISM = re.compile(
    r"\b(?:how|why|where)\s+(?:(?:does|do|did|is|are|was|were|has|have|could|would)(?:n't)?|can(?:'t|not)?"
    r"|will|won't)\s+"
    r"(?!(?:i|we|you|one|my|our|your)\b)\w",
    re.IGNORECASE,
)
# A question that compares two things, and where it names each: "Compared with A, how does B ...", "the
# difference between A and B", "How does A differ from B", "A versus B". Each side is answered from the
# passages that speak of it (extractive.cover).
_SIDES = (
    re.compile(
        r"\b(?:compared (?:with|to)|in contrast (?:with|to)|unlike)\s+(?P<a>[^,?;]+),\s*(?P<b>.+)", re.I
    ),
    re.compile(
        r"^(?:how|in what ways?)\s+(?:is|are)\s+(?P<a>.+?)\s+(?:different|distinct)\s+from\s+(?P<b>.+)", re.I
    ),
    re.compile(r"\bdifferences? between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)", re.I),
    re.compile(
        r"^(?P<a>.+?)\s+(?:differs?|(?:is|are) (?:different|distinct))\s+(?:from|between)\s+(?P<b>.+)", re.I
    ),
    re.compile(r"^(?P<a>.+?)\s+(?:versus|vs\.?)\s+(?P<b>.+)", re.I),
)


def sides(question: str) -> tuple[str, str] | None:
    """The two things a question compares, each as the question words it (None for a question comparing
    nothing): "Compared with subagents, how do handoffs differ?" -> ("subagents", "how do handoffs
    differ?")."""
    for pattern in _SIDES:
        found = pattern.search(question.strip())
        if found and (a := found.group("a").strip()) and (b := found.group("b").strip()):
            return a, b
    return None


# Figures are written in digits (with an ordinal or decade ending). Number words are read apart
# (`worded_figures`): after a question word or a determiner they count what is asked for ("which two
# modes", "the three fields"), not a fact to find. A unit may be written on ("2.5MB", "10ms"): the figure
# is the digits. A clock time or a duration ("1:45", "11:45", "1:52:30") is one figure: its parts are no
# figures of their own. Digits written on to a word are part of a name, no figure ("i18n", "utf8", "sha256",
# "python3"), but for a version's "v" ("v2.3"); an underscore parts words ("roadmap_2024"). Digits hyphened
# to capitals name a model, a standard or a room ("FP-20", "UTF-8", "GC-5", "COVID-19"): no figure either
# ("run-3", "pre-2020" are).
FIGURE = re.compile(
    r"(?-i:(?<![A-Z]-))(?:(?<![^\W_])|(?<=\b[vV]))(?:\d{1,2}(?::[0-5]\d){1,2}(?![\d:])|\d+(?:[.,]\d+)*(?:(?:st|nd|rd|th|s)\b)?)",
    re.IGNORECASE,
)


def negated(words: list[str]) -> bool:
    return any(w in NEGATIONS or w.endswith(("n't", "n’t")) for w in words)


# A source may write a figure the question writes in digits in words or Roman numerals ("the seventeenth
# century", "World War II", "three times"): what a question's stated figures are also matched against.
_CARDINALS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty"
).split()
_ORDINALS = (
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
).split()
_TENS = "thirty forty fifty sixty seventy eighty ninety".split()
MONTHS = "january february march april may june july august september october november december".split()
NUMBER_WORDS = (
    {w: str(i) for i, w in enumerate(_CARDINALS)}
    | {w: str(i) for i, w in enumerate(MONTHS, 1)}  # a date's month: 2024-01-15 is 15 January 2024
    | {w[:3]: str(i) for i, w in enumerate(MONTHS, 1) if w != "may"}
    | {w: str(i) for i, w in enumerate(_ORDINALS)}
    | {w: str(30 + 10 * i) for i, w in enumerate(_TENS)}
    | {w.replace("y", "ieth"): str(30 + 10 * i) for i, w in enumerate(_TENS)}
    | {"hundred": "100", "hundredth": "100", "thousand": "1000", "thousandth": "1000"}
)
ROMAN = re.compile(r"\b(?=[IVX]+\b)X{0,3}(?:IX|IV|V?I{0,3})\b")  # I to XXXIX, upper case only
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10}
# A question that asks how to do something, requests something or supposes something states its own
# figures ("How do I set the timeout to 30 seconds?", "Give me 3 examples", "What happens if I set it to
# 30?"), and so does one that gives a figure as an example ("from partway through (say 50%)", "a big
# file, say, 10 GB", "e.g. 20 MB"; not the verb, "What does the report say 50 percent do?", "the docs,
# unlike the code, say 30 seconds", nor "for instance 2", which may be a server's), and one saying what the
# user wants ("I want it to give up after five tries or thirty seconds", "we'd like two cron jobs"; not
# "why do I need 8 GB?" nor "I'd like to know why it is 50 MB", which ask about the folder's figure): they
# are what the user wants or imagines, not a fact the sources must already hold.
OWN_FIGURES = re.compile(
    r"\bhow (?:do|can|could|should|would|might|may) (?:i|we|you|one)\b|\bhow to\b|"
    r"^\s*(?:can|could|should|may) (?:i|we|you|one)\b|"
    r"\bwhy (?:can't|cannot|can not|couldn't|shouldn't|mustn't|must not|may not) (?:i|we|you|one)\b|"
    r"^\s*(?:please\s+)?(?:tell|give|list|name|summari[sz]e|show|explain|describe|write|compare|suggest|"
    r"draft|outline)\b|\b(?:if|suppose|supposing|assuming|what happens)\b|"
    r"(?<!\bdo )(?<!\bdid )\b(?:i|we)(?:['’]d| would)? (?:want|need|like|prefer|rather)\b"
    r"(?! to (?:know|understand|learn|see|hear|ask)\b)|"
    r"\(\s*say,?\s+(?=[$€£~]?\d)|,\s*say,\s+(?=[$€£~]?\d)|\be\.g\.,?\s+(?=[$€£~]?\d)",
    re.IGNORECASE,
)

# A question a request embeds after a verb that takes one ("Can you tell me why the quorum is five?",
# "could you pull up what minute 25/214 decided", "Explain why it retries 3 times"): what it asks about is
# the folder's, its figures premises, as the question asked outright would have them. Not an embedded
# how-to ("show me how to", "tell me what to do") nor a plain "how" ("tell me how I set it to 30"), whose
# figures stay the user's; the request's own object stays the user's too ("give me 3 reasons why ...").
_EMBEDDED = re.compile(
    r"\b(?:tell|show|explain|remind|remember|recall|confirm|clarify|check|say|see|know|describe|"
    r"summari[sz]e|(?:find|figure|work)\s+out|(?:look|pull|dig|bring)\s+up|find)"
    r"(?:\s+(?:me|us|to\s+me|to\s+us|for\s+me|for\s+us|again))?\s+"
    r"(?=(?:why|what|when|where|which|who|whom|whose|whether|"
    r"how\s+(?:many|much|long|often|old|far|large|big|high|fast))\b(?!\s+to\b))",
    re.IGNORECASE,
)


def stated_part(clause: str) -> str:
    """The part of a question's clause whose figures the folder must state: all of it where it neither
    asks how to do something, requests nor supposes something (OWN_FIGURES); where it requests, the
    question it embeds (`_EMBEDDED`), unless that is the user's own too, less the user's own case it
    names (`_INSTANCE`, blanked); else nothing."""
    if not OWN_FIGURES.search(clause):
        return clause
    rest = embedded_question(clause)
    return _INSTANCE.sub(_blank, rest) if rest and not OWN_FIGURES.search(rest) else ""


# The user's own case, which a request asks to have judged: a figure in a noun phrase opened by "a", "an" or
# "my" ("Can you tell me what grade a mark of 68 gets?", "whether my 4,200-word essay is within the limit",
# "which plan suits a department of 12 teachers", "what a 404 page looks like"); not a figure the phrase's
# verb goes on to state ("why a follow-up costs £40").
_INSTANCE = re.compile(
    rf"\b(?:an?|my)\s+(?:[A-Za-z-]+\s+(?:[A-Za-z-]+\s+)?of\s+)?[$€£]?(?:{FIGURE.pattern})", re.IGNORECASE
)


def embedded_question(clause: str) -> str:
    """The question a request embeds (`_EMBEDDED`: "Can you tell me why it went up?" embeds "why it went
    up?"), or ""."""
    embedded = _EMBEDDED.search(clause)
    return clause[embedded.end() :] if embedded else ""


# A change or a move the user asks how to make, asks leave to make or supposes is their own, as such a
# question's figures are (OWN_FIGURES); one they ask to have explained or confirmed is a premise ("Can you
# confirm it moved from Tier 2 to the solutions team?", "Tell me why it went from 5 to 10"): a change has
# happened or not, where a figure in a request is the user's to choose ("Give me 3 examples").
OWN_CHANGE = re.compile(
    r"\bhow (?:do|can|could|should|would|might|may) (?:i|we|you|one)\b|\bhow to\b|"
    r"^\s*(?:can|could|should|may) (?:i|we|one)\b|\b(?:if|suppose|supposing|assuming|what happens)\b",
    re.IGNORECASE,
)

# An example a question gives: what follows "e.g.", "for example", "for instance" (not "for instance 2",
# which may be a server's), "such as", or a "say" set off by a comma or a parenthesis, to the end of its
# clause or parenthesis, code spans whole ("What does a tilde do in a version, e.g. how does 1.0~rc1
# compare with 1.0?", "a scheme it doesn't know, such as git+ssh"); and the quoted or code text after a
# "like" that compares, not one that wants ("like `&copy 2020`", "like 'report.html'"; not "I'd like `x` to
# load"); and a name the user says they gave their own thing ("a field I named `_token`", "we called it
# x"; not "I called `load()`", which is the folder's). It
# illustrates what the question asks about: the user's own, as OWN_FIGURES says of a figure, not something
# the folder must already hold.
_EXAMPLE = re.compile(
    r"(?:\be\.g\.|\bfor example\b|\bfor instance\b(?!\s+\d)|\bsuch as\b|\(\s*say\b|,\s*say,)"
    r"(?:`[^`\n]*`|[^;?!()`])*"
    r"|(?<!\bwould )(?<!\b[Ii]'d )(?<!\bI )(?<!\bwe )(?<!\byou )(?<!\bthey )"
    r"\blike\s+(?:`[^`\n]*`|\"[^\"\n]*\"|“[^”\n]*”|‘[^’\n]*’|'[^'\s][^'\n]*'(?!\w))"
    r"|\b(?:I|we)(?:'ve|’ve|\s+have)?\s+(?:named\s+it|called\s+it|named(?:\s+(?:my|our|the|a|an|this)\s+\w+)?)"
    r"\s+(?:`[^`\n]*`|\"[^\"\n]*\"|'[^'\n]*'|[\w.-]+)",
    re.IGNORECASE,
)


# Notation a question writes, the user's own as an example is: a formula of short operands ("Ax = b",
# "folds 2*3 into 6", "1//0", "x^2"; not "a/b", which names things as often as it divides them) with the
# figure it comes to, and a key chord ("Ctrl-C", "Alt+F4", "shift-tab"), which sources write in a notation
# of their own ("C-c", "^C", "SIGINT"), and a class of figures written with a placeholder ("5xx" status
# codes, a "3.x" or "1.2.*" release series; not "2x", a factor), which states none of its own.
_OPERAND = r"(?:\d+(?:\.\d+)?|[A-Za-z]{1,2}\d?)(?![\w.])"
_KEY = r"(?:ctrl|control|alt|shift|cmd|command|meta|option|super|opt)"
_NOTATION = re.compile(
    rf"(?<![\w.\-/]){_OPERAND}(?:\s*(?://|\*\*|[*+=^%]|<-)\s*{_OPERAND})+"
    r"(?:\s+(?:into|to|gives|yields|equals|makes)\s+-?\d+(?:\.\d+)?(?![\w.]))?"
    rf"|(?i:\b{_KEY}(?:[-+](?:{_KEY}|tab|enter|esc|space|return|delete|backspace|home|end|up|down|left|right|"
    r"f\d{1,2}|[a-z0-9])\b)+)"
    r"|(?<![\w.])\d+(?:\.\d+)*(?:[xX]{2,}|(?:\.[xX*])+)(?![\w.*])"
)


# A markup command with its arguments as a question writes it (TeX's "\inteval{7/2}", "\vspace[2]{2cm}"):
# what is in its brackets and braces is input the user types, as a formula's operands are (_NOTATION); the
# command's name is kept, a name the folder must hold.
_COMMAND_ARGUMENTS = re.compile(r"(\\[A-Za-z@]+\*?)((?:\[[^\]\n]*\]|\{[^{}\n]*\})*\{[^{}\n]*\})")


def without_arguments(text: str) -> str:
    """`text` with the arguments of the markup commands it writes blanked (`_COMMAND_ARGUMENTS`), its
    length and offsets kept."""
    return _COMMAND_ARGUMENTS.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)


def without_examples(text: str) -> str:
    """`text` with the examples it gives (`_EXAMPLE`) and the notation it writes (`_NOTATION`) blanked
    out, its length and offsets kept: what is the user's own, not something the folder must hold."""
    return _NOTATION.sub(_blank, _EXAMPLE.sub(_blank, text))


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


# The stand-in names programmers give their own things in examples (RFC 3092's metasyntactic variables;
# not "bar", a word in many real names: "progress_bar"): a name holding one as a part ("PyFoo_Tools",
# "myFooService", or ending one, "libfoo1") is the user's placeholder, not a name the folder must hold.
PLACEHOLDERS = frozenset("foo foobar baz qux quux xyzzy".split())
_NAME_PARTS = re.compile(r"[^A-Za-z]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def placeholder(name: str) -> bool:
    """Whether a name is an example's stand-in (PLACEHOLDERS)."""
    parts = [p.lower() for p in _NAME_PARTS.split(name) if p]
    return any(p in PLACEHOLDERS or p.endswith("foo") for p in parts)


# Where a question's clauses part: a semicolon or a question or exclamation mark followed by a space; a
# colon or a full stop after a word or a figure (not an abbreviation's "e.g.") followed by a space and a
# capital.
_CLAUSE_END = re.compile(r"(?<=[;?!])\s+|(?:(?<=[A-Za-z]{3}[.:])|(?<=\d[.:]))\s+(?=[A-Z`'\"(])")


# What a text gives as holding when nothing is set (premise.defaults): the word "default" ("defaults to
# 302", "302 by default", "the default is 88", "(default: v2)"), not as part of a name (FZF_DEFAULT_OPTS).
# Not "defaulted": what a default was ("it defaulted to 30 before 2.0") is history, not what holds.
DEFAULT_WORD = re.compile(r"default(?:s|ing)?", re.IGNORECASE)
# A setting's state as a word, with its polarity: "warnings on by default", "default is warnings off".
SWITCHES = {"on": "+", "enabled": "+", "true": "+", "off": "-", "disabled": "-", "false": "-"}
MODALS = frozenset({"can", "may", "must", "could", "should", "will", "would", "might"})
# A clause asking why, how, when or where something is so takes it as given (one asking nothing of these,
# "Telemetry is on by default?", asks whether).
ASKS_WHY = re.compile(r"\b(?:why|how|when|where|who|whose)\b", re.IGNORECASE)
# A clause asking which things are so ("Which rules are on by default?"): it presupposes none of them.
ASKS_WHICH = re.compile(r"^\W*(?:which|what)\b", re.IGNORECASE)
BECOMES = frozenset({"is", "was", "as", "becomes", "became", "remains", "stays"})  # "1% as the default"
SWITCH_PREPOSITIONS = frozenset({"on", "off"})  # a switch's state, or a preposition ("runs on node")
# What may follow "on" or "off" as a state, where a preposition's object would ("is on and encryption off",
# "on in production", "on by default"); anything else after them is what they are on ("listens on 8080").
STATE_FOLLOWERS = frozenset(
    "and or but in for when unless if until since because so as again now by default defaults".split()
)
CEASES = frozenset({"stop", "stops", "stopped", "cease", "ceased", "ceases"})  # "stop defaulting to 30"
# A clause that asks whether it is so ("Is that on by default?", "Does Black default to 88?"): what it
# says is the question, not what it takes as given.
ASKS_WHETHER = re.compile(
    r"^\W*(?:is|are|was|were|does|do|did|can|could|will|would|should|has|have|had|isn't|aren't|doesn't|"
    r"don't)\b",
    re.IGNORECASE,
)
# A clause about the user's own setup ("I gave --port a default value", "we set it to 5"): what it says of
# a default is theirs, not the folder's.
FIRST_PERSON = re.compile(r"\bI\b|\bI'|(?i:\b(?:we|we're|we've|my|our|me)\b)")
# Where a question sets two things side by side, each with what it says of it ("Why are request objects
# mutable while response objects are immutable?", "Why do access tokens last a month but refresh tokens
# fifteen minutes?"): the contrast between its two clauses; not a "while" that opens a time ("while looping
# over a table", "while in free fall"), nor "but also", "but not". What a source says of one thing parts
# from what it says of another at the same words and at a semicolon (CONTRAST_PART).
CONTRAST = re.compile(
    r",?\s+\b(?:while|whereas|but|yet)\s+(?!(?:[a-z]+ing|in|on|at|under|still|also|not)\b)", re.IGNORECASE
)
CONTRAST_PART = re.compile(r",?\s*\b(?:while|whereas|but|yet)\b\s*|;\s", re.IGNORECASE)
# A thing a statement sets its own against in passing, which it says nothing of ("Tuples, unlike lists, are
# immutable", "Unlike lists, tuples are immutable", "compared with X,"): read without it.
SET_AGAINST = re.compile(
    r"(?:^|,)\s*\b(?:unlike|compared\s+(?:with|to)|in\s+contrast\s+(?:with|to)|as\s+opposed\s+to)\b[^,;.]*,?",
    re.IGNORECASE,
)
# A clause with a subject of its own: one opening on a determiner, a name written with a capital or as
# code ("the api runs on node", "Redis uses...", "bar() returns..."), or holding a verb that carries a
# statement of its subject, to be, to have, to do or a modal, with its denial ("daggers are two-handed",
# "the sync client doesn't"). A clause set against another that is neither may be the first's subject
# doing something more ("Why does the client retry but fail after three tries?").
OWN_SUBJECT = re.compile(
    r"^\W*(?:(?i:the|a|an|its|their|our|your|his|her|this|that|these|those|each|every|all|some|both|"
    r"any|no)\b|[A-Z0-9`]|\S*[_.(])"
)
AUXILIARY = re.compile(
    rf"\b(?:is|are|was|were|be|been|has|have|had|does|do|did|shall|{'|'.join(sorted(MODALS))})(?:n[’']t)?\b"
    r"|\b(?:isn|aren|wasn|weren|hasn|haven|hadn|doesn|don|didn|can|couldn|won|wouldn|shouldn|mustn)[’']t\b"
    r"|\bcannot\b",
    re.IGNORECASE,
)
# A clause that supposes what it says ("If the KPSS test says it is stationary but the ADF test ..."): the
# user's case, no premise.
SUPPOSES = re.compile(r"\b(?:if|suppose|supposing|assuming|imagine)\b", re.IGNORECASE)
# A word that asks (a clause holding one asks, stating no pairing: "..., but chose what profession?")
ASKS = re.compile(r"\b(?:what|which|who|whom|whose|where|when|how|why)\b", re.IGNORECASE)
# A question's opening words, which say what it asks, not what it states ("Why does", "How come", "Since")
QUESTION_OPENING = re.compile(
    r"^\W*(?:(?:why|how come|since|given that|now that)\s+)?"
    r"(?:(?:do|does|did|is|are|was|were|has|have|had|can|could|would|will|should)\s+)?",
    re.IGNORECASE,
)
# A subordinate clause that states what the rest of the sentence takes as given ("Since X defaults to 500,
# how do I raise it?"): up to its comma, not a figure's ("£4,500") nor one in brackets ("c(2,2)").
GIVEN_CLAUSE = re.compile(
    r"^\W*(?:since|as|given that|now that|because)\b(?:[^,;?()]|\([^();?]*\)|(?<=\d),(?=\d{3}))*,",
    re.IGNORECASE,
)


def clauses(text: str) -> list[str]:
    """A question's clauses, each as written ("Black wraps at 88 by default; how do I change that?": two)."""
    return [c for c in _CLAUSE_END.split(text) if c.strip()]


# A change or a move a text states with its direction, old then new (premise.directions): "from 40 to 55
# gold", "out of Kelvin into Brindley", "from LC-MS over to the ELISA kit", "to 10 from 5"; an arrow, "2.0 ->
# 1.75"; and a new value with its old one after it, "55 gold (previously 40)", "cap at 10 (was 20)", "60 %,
# down from 75". A side is one to four words; a full stop or a comma ends it, not a figure's or a room's
# dots ("1.75", "B.0.14") nor a figure's thousands ("10,000").
_SIDE_WORD = r"[\w%$£€@/'’+-]+(?:\.[\w%]+|,\d{3}(?!\d))*"
_SIDE = rf"{_SIDE_WORD}(?:[ \t]+{_SIDE_WORD}){{0,3}}"
FROM_TO = re.compile(
    rf"\b(?:from|out[ \t]+of)\s+(?P<old>{_SIDE}?)\s+(?:(?:over|back)\s+)?(?:to|into)\s+(?P<new>{_SIDE})",
    re.IGNORECASE,
)
TO_FROM = re.compile(rf"\bto\s+(?P<new>{_SIDE}?)\s+from\s+(?P<old>{_SIDE})", re.IGNORECASE)
# A return after a trial, the trial the old side: "went back to Helpbeam after trying Casefold" (not "went
# back to the office after lunch")
BACK_AFTER = re.compile(
    r"\b(?:went|go(?:es|ing)?|gone|mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?|c[ao]me|coming)\s+back\s+to\s+"
    rf"(?P<new>{_SIDE}?)\s+after\s+(?:trying|using|testing|piloting|switching\s+to|moving\s+to)\s+(?P<old>{_SIDE})",
    re.IGNORECASE,
)
ARROW = re.compile(rf"(?P<old>{_SIDE_WORD})[ \t]*(?:->|→|=>|⇒)[ \t]*(?P<new>{_SIDE_WORD})")
FORMERLY = re.compile(
    rf"(?:[(,|]|(?<=\S)[ \t]+#(?=[ \t]*(?:previously|formerly|was|were)[ \t]+\d))[ \t]*"
    rf"(?:previously|formerly|was|were|(?:up|down)[ \t]+from)[ \t]+(?P<old>{_SIDE})",
    re.IGNORECASE,
)  # a code comment's "# was 3" after a setting's value too, where it states a figure
# The old side of a choice made over another, its new side the words before it: "after 2 failed answers
# instead of 3", "run the callbacks in declaration order rather than the order typed"
INSTEAD = re.compile(rf"\b(?:instead[ \t]+of|rather[ \t]+than)[ \t]+(?P<old>{_SIDE})", re.IGNORECASE)
# A habit and what replaced it, figure by figure: "used to pass chats over after 2 misses and now waits
# for 3" (premise.directions reads the first figure of each part)
USED_NOW = re.compile(
    r"(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bbe\s)(?<!\bbeen\s)(?<!\bbeing\s)"
    r"\bused[ \t]+to\b(?P<old>[^.;?!]{0,200}?)\bnow\b(?P<new>[^.;?!]{0,200})",
    re.IGNORECASE,
)  # not the passive's "is used to run 4 jobs"
# A move a source states with its destination only: "Monday lectures move to Brindley B.0.14", "we're
# switching over to Casefold" (premise.reversed_direction reads it against a question's move)
MOVED_TO = re.compile(
    r"\b(?:mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?|migrat(?:e|es|ed|ing)|relocat(?:e|es|ed|ing)|"
    rf"transferr?(?:s|ed|ing)?)\b(?:[ \t]+(?:over|back|across))?[ \t]+(?:to|into)[ \t]+(?P<new>{_SIDE})",
    re.IGNORECASE,
)
# A change a question states by its sense alone, with no sides ("Why did we bring the hall charges down
# in January?", "Why were the fees raised?"): the verbs of an amount going down, and of one going up, a
# closed class. Not "drop", which removes as often as lowers ("drop support for 3.7"), "cut off", "fall
# back" or "fall short"; "lower" and "double" only as verbs ("lower the fee", not "lower case", "lower
# than", "double quotes"); "put ... up" with what is put up between ("put the price up", not "put up a
# sign"); nor "raise" before an error, a concern or a name, which code and people raise ("raise
# ValueError", "raise an issue": premise.reversed_sense also skips a clause about an error raised).
# "go up", "went right down": an object goes between "bring" and "down", at most one word between "go"
# and "up" ("going to be put up" is no rise)
_GO = r"(?:go(?:es|ing)?|went|gone|come|came|comes)(?:\s+(?!to\b|be\b)[\w'’-]+)?"
_OBJECT = r"\s+(?:the|its|their|our|my|your|his|her|it|them|this|that|these|those|a|an)\b"
WENT_DOWN = re.compile(
    r"\b(?:cut(?:s|ting)?(?![\w-]|\s+(?:off|out)\b)|reduc(?:e|es|ed|ing)|lower(?:s|ed|ing)\b|"
    rf"lower(?={_OBJECT})|decreas(?:e|es|ed|ing)|halv(?:e|es|ed|ing)|shorten(?:s|ed|ing)?|"
    r"(?:br(?:ing|ings|inging|ought)|tak(?:e|es|ing)|took|taken)(?:\s+[\w'’-]+){0,5}?\s+down|"
    rf"{_GO}\s+down|"
    r"(?:fell|f[ae]ll(?:s|en|ing)?)(?!\s+(?:back|short|over|through|behind|into|under|within|out|on|apart)\b))\b",
    re.IGNORECASE,
)
WENT_UP = re.compile(
    r"\b(?:rais(?:e|es|ed|ing)(?!\s+(?:an?\s+|the\s+)?(?:(?-i:[A-Z`])|\w*(?:error|exception|warning|issue|"
    r"question|concern|flag|alarm|objection)s?\b))|"
    rf"increas(?:e|es|ed|ing)|doubl(?:ed|ing)|doubles?(?={_OBJECT})|lengthen(?:s|ed|ing)?|rose|"
    r"ris(?:e|es|en|ing)|put(?:s|ting)?(?:\s+[\w'’-]+){1,5}?\s+up|"
    r"(?:br(?:ing|ings|inging|ought)|bump(?:s|ed|ing)?|push(?:es|ed|ing)?)(?:\s+[\w'’-]+){0,5}?\s+up|"
    rf"{_GO}\s+up)\b",
    re.IGNORECASE,
)
# A verb saying that a value changed, which makes a source's "from 7 to 10 days" a change rather than a
# range ("open from 9 to 5", "levels from 1 to 10"): "goes from 7 to 10 days", "raised to 10 from 5".
CHANGED = re.compile(
    r"\b(?:switch\w*|migrat\w*|mov(?:e|es|ed|ing)|transition\w*|replac\w*|chang(?:e|es|ed|ing)|"
    r"upgrad\w*|downgrad\w*|rais(?:e|es|ed|ing)|increas\w*|decreas\w*|cut(?:s|ting)?|reduc\w*|"
    r"lower(?:s|ed|ing)?|drop(?:s|ped|ping)?|extend\w*|shorten\w*|lengthen\w*|bump\w*|go(?:es|ing)?|went|"
    r"gone|grow(?:s|n|ing)?|grew|ris(?:e|es|en|ing)|rose|f[ae]ll(?:s|en|ing)?|doubl\w*|halv\w*|"
    r"tighten\w*|loosen\w*|adjust\w*|revis\w*|updat\w*)\b",
    re.IGNORECASE,
)


# A compound number word, "twenty-four", "sixty four", "thirty-first": its tens and its units
_TENS_WORDS = "|".join(_CARDINALS[20:] + _TENS)
_UNITS_WORDS = "|".join(_CARDINALS[1:10] + _ORDINALS[1:10])
_COMPOUND = re.compile(rf"\b({_TENS_WORDS})[- ]({_UNITS_WORDS})\b", re.I)


def _compound_value(tens: str, units: str) -> str:
    return str(int(NUMBER_WORDS[tens.lower()]) + int(NUMBER_WORDS[units.lower()]))


def written_figures(text: str) -> set[str]:
    """The figures a text writes in words ("seventeenth", "fifty-two") or Roman numerals ("II"), as digits."""
    found = {NUMBER_WORDS[w] for w in re.findall(r"[a-z]+", text.lower()) if w in NUMBER_WORDS}
    found |= {_compound_value(t, u) for t, u in _COMPOUND.findall(text)}
    return found | {str(roman(m.group())) for m in ROMAN.finditer(text) if m.group()}


# In a sentence a model wrote, a number word is a claim as a figure in digits is ("the last three parts of
# the host"): the cardinals from two, the tens, hundred and thousand, and the ordinals from third. Not
# "one", "first" or "second" (a pronoun, a sequence, a unit of time more often than a figure), nor months
# or Roman numerals ("may", "I"). Read by the contract, which drops a written sentence whose figures its
# cited sources do not state in digits or in words.
CLAIMED_WORDS = {
    w: v
    for w, v in NUMBER_WORDS.items()
    if w in _CARDINALS[2:] + _ORDINALS[3:] + _TENS
    or w.endswith("ieth")
    or w.startswith(("hundred", "thousand"))
}


def claimed_figures(text: str) -> dict[str, str]:
    """The figures a written sentence states in number words (CLAIMED_WORDS, "fifty-two" as one), each
    as a digit string mapped to the words as written."""
    found: dict[str, str] = {}
    for t, u in _COMPOUND.findall(text):
        found.setdefault(_compound_value(t, u), f"{t}-{u}")
    compound = {w.lower() for pair in _COMPOUND.findall(text) for w in pair}
    for word in re.findall(r"[A-Za-z]+", text):
        if (w := word.lower()) in CLAIMED_WORDS and w not in compound:
            found.setdefault(CLAIMED_WORDS[w], word)
    return found


# The words after which a number word counts what a question asks for ("which two modes", "the three
# fields", "its first two releases") or any such things ("any two plugins", "between two attempts": a
# relation's two sides) rather than state a figure ("keep ten copies", "every two hours"): question words,
# determiners and "between", a closed class.
COUNTS_ASKED = frozenset(
    "what which whose who whom how the these those its their his her our your my first last any "
    "between".split()
)


def worded_figures(question: str) -> dict[str, str]:
    """The figures a question states in number words (CLAIMED_WORDS; a compound, "sixty-four", as one) as
    digits do, each mapped to the words as written: not those after a question word or a determiner
    (COUNTS_ASKED), which count what is asked for, nor one that counts the list the question goes on to
    give after a colon ("handle three cases: A, B and C"), which counts the question's own words. "Why
    does it keep ten copies?": {"10": "ten"}; "Which two modes exist?": {}."""
    found: dict[str, str] = {}
    before = ""
    for m in NUMBER_OR_WORD.finditer(question):
        word, value = m.group(), claimed_value(m.group())
        counted = bool(value) and before.lower() not in COUNTS_ASKED
        if counted and _listed(question, m.end()) != int(value):
            found.setdefault(value, word)
        before = word
    return found


# A compound number word ("sixty-four", "twenty one") or any word: a question's words as read for figures
NUMBER_OR_WORD = re.compile(rf"\b(?:{_TENS_WORDS})[- ](?:{_UNITS_WORDS})\b|[A-Za-z]+", re.IGNORECASE)


def claimed_value(word: str) -> str:
    """The figure a number word (CLAIMED_WORDS) or a compound of one ("sixty-four") states, as digits;
    "" for any other word."""
    if m := _COMPOUND.fullmatch(word):
        return _compound_value(m.group(1), m.group(2))
    return CLAIMED_WORDS.get(word.lower(), "")


def _listed(question: str, at: int) -> int:
    """How many items the question lists after the colon that ends the phrase at `at`: parted by commas or
    semicolons, the last by "and" or "or" too where no comma sets it apart ("A, B and C"; "A and B");
    0 without such a colon."""
    clause = _LIST_AFTER.match(question, at)
    if clause is None:
        return 0
    items = [i.strip() for i in re.split(r"[,;]", clause.group(1)) if re.search(r"[A-Za-z0-9]", i)]
    last = items[-1] if items else ""
    return len(items) + bool(re.search(r"\s(?:and|or)\s", last) and not re.match(r"(?:and|or)\b", last))


_LIST_AFTER = re.compile(r"[^:?.;]{0,60}:([^?]*)")  # the rest of a phrase, a colon, and what it lists


# Words that join a figure to what follows it rather than name its unit ("3.9 through 3.12", "5 of them";
# adverbs, "3.12 only", are told by their -ly).
CONNECTIVES = frozenset(
    "a an and as at between by for from in into of on or over per since than the through to until via "
    "with".split()
)


# Words before a figure that place or hedge it rather than name what it numbers ("under 100", "about
# 200", "top 10"): prepositions and approximators, a closed class. Any other word right before a figure
# with no unit names its kind ("exit code 2", "port 8080": premise.figure_kinds).
NOT_LABELS = CONNECTIVES | frozenset(
    "about above across after against along almost among approx approximately around before below beneath "
    "beside besides beyond circa despite down during except exactly just least less like more most near "
    "nearly off only past roughly some till top toward towards under up upon within without every each "
    "all first last next another no not even maybe perhaps than over".split()
)


def roman(numeral: str) -> int:
    """The value of an upper-case Roman numeral from I to XXXIX."""
    values = [_ROMAN_VALUES[c] for c in numeral]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


# Units a figure is written with, each spelling to its unit ("32 MB", "32MiB", "32 megabytes"): a figure
# said of one unit is another quantity than the same figure of another ("32-bit" is not "32 MB"; see
# premise.unsupported_figures). Counts ("3 times", "5 entries") are no units: what they count is said in
# too many ways.
UNITS = {
    spelling: unit
    for unit, spellings in {
        "bit": "bit bits",
        "byte": "byte bytes",
        "kb": "kb kib kilobyte kilobytes kbyte kbytes",
        "mb": "mb mib megabyte megabytes mbyte mbytes",
        "gb": "gb gib gigabyte gigabytes gbyte gbytes",
        "tb": "tb tib terabyte terabytes",
        "ns": "ns nanosecond nanoseconds",
        "us": "μs microsecond microseconds",
        "ms": "ms msec msecs millisecond milliseconds",
        "s": "s sec secs second seconds",
        "min": "min mins minute minutes",
        "h": "h hr hrs hour hours",
        "day": "day days",
        "week": "week weeks wk wks",
        "month": "month months",
        "year": "year years yr yrs",
        "%": "% percent pct",
        "px": "px pixel pixels",
        "km": "km kilometre kilometres kilometer kilometers",
        "mile": "mile miles",
        "kg": "kg kilogram kilograms",
        "lb": "lb lbs",
    }.items()
    for spelling in spellings.split()
}


# A word for a person or a group of people by what they do or are, by its ending ("foremen", "manager",
# "governors", "apprentice" aside): what a who-question is answered with in a folder of one's own as often
# as a name ("Who may take a van home?" "Site foremen may take their van home"). An ending, not a list of
# roles: it also takes some words that are none ("water", "number"), which only makes the check's
# "no name where one is asked" read less often.
PERSON = re.compile(
    r"[a-z]{2,}(?:er|or|ist|ian|ant|ent|ee|eer|man|men|woman|women|person|people|staff|team|crew|folk)s?",
    re.IGNORECASE,
)
_NOT_PERSON = re.compile(r".*ments?", re.IGNORECASE)  # "-ment" words name things ("document", "statement")
# ...nor do the function words, adverbs and adjectives so ending
_NOT_PERSONS = frozenset(
    "after other others under over never ever either neither whether rather further another however "
    "together whatever whenever wherever whoever better later earlier sooner faster longer lower higher "
    "greater larger smaller fewer newer older current recent different present frequent consistent "
    "apparent sufficient efficient independent permanent urgent relevant important significant constant "
    "instant distant pleasant".split()
)


def persons(words: Sequence[str]) -> frozenset[str]:
    """The words of `words` that name a person or people by their ending (PERSON), lower-cased."""
    return frozenset(
        w.lower()
        for w in words
        if PERSON.fullmatch(w) and not _NOT_PERSON.fullmatch(w) and w.lower() not in _NOT_PERSONS
    )


# Words written with a capital that name no thing a folder must mention: the calendar, the clock, the
# reader, a title before a name. A question's other capitalised words (not opening a sentence) are names
# (premise.proper_names).
NOT_NAMES = frozenset(
    MONTHS + "monday tuesday wednesday thursday friday saturday sunday am pm ok mr mrs ms dr".split()
)


# The prefixes English derives words with ("reindexing" from indexing, "unhandled" from handled): a word the
# folders lack built from one they hold is a paraphrase of what they say, not a new topic.
PREFIXES = frozenset(
    "a an ante anti auto bi co counter de dis en em ex extra hyper il im in inter ir micro mid mis multi "
    "non over post pre pro re semi sub super trans tri un under".split()
)
# The suffixes English makes comparatives, superlatives, agent nouns, adjectives and adverbs with
# ("priciest" and "pricey" from price, "roofer" from roof, "hastily" from haste): a word the folders lack
# that is one of these forms of a word they hold says what they say (premise.unknown_topics). Longest
# first; the spelling the suffix changed is restored by `bases`.
DERIVING_SUFFIXES = ("iest", "ier", "ily", "est", "er", "ey", "ly", "y")


def bases(word: str) -> list[str]:
    """The words `word` may be derived from by the first of DERIVING_SUFFIXES it ends in, in each spelling
    English writes the base: a y the suffix turned to i restored ("priciest" -> pricy), a silent e it
    dropped ("priciest" -> price), a consonant it doubled undone ("biggest" -> big). A base keeps three
    letters or more."""
    suffix = next((s for s in DERIVING_SUFFIXES if word.endswith(s) and len(word) - len(s) >= 3), "")
    if not suffix:
        return []
    base = word[: -len(suffix)]
    found = [base + "y"] if suffix.startswith("i") else []
    found += [base, base + "e"]
    if len(base) > 3 and base[-1] == base[-2] and base[-1] not in "aeiouls":
        found.append(base[:-1])
    return found


# The names of the characters code and text are written with: a question that names one ("escapes the
# ampersand") asks about the character, which a folder holds where it writes it (premise.unknown_topics).
CHARACTER_NAMES = {
    "ampersand": "&",
    "asterisk": "*",
    "asterisks": "*",
    "backslash": "\\",
    "backslashes": "\\",
    "backtick": "`",
    "backticks": "`",
    "caret": "^",
    "tilde": "~",
    "semicolon": ";",
    "semicolons": ";",
    "underscore": "_",
    "underscores": "_",
    "apostrophe": "'",
    "apostrophes": "'",
    "hyphen": "-",
    "hyphens": "-",
    "octothorpe": "#",
    "hashtag": "#",
    "ellipsis": "...",
    "parenthesis": "(",
    "parentheses": "(",
}


# A prefix that names a thing only to exclude it ("non-Latin scripts", "non-Windows systems"): the
# word after it is no thing the question takes a folder to mention (premise.proper_names).
EXCLUDING = frozenset("non".split())


# How rare a word is in general English, from wordfreq's English list (its "large" list: words used at
# least once per hundred million words of English, from subtitles, books, news, web text and Wikipedia).
# A question word no indexed file holds is either the user's paraphrase of what the files say ("forgot",
# "weird", "laptop": common English) or the name of a thing they never mention ("nginx", "terraform",
# "kubectl": rare in English, or not English at all): premise.unknown_topics reads the difference.
MAX_RARITY = 9.0  # a word wordfreq has never seen; its most common word ("the") reads about 1.3


def rarity(word: str) -> float:
    """-log10 of the word's frequency in English (9 - wordfreq's Zipf value): 4.3 for "file", 4.8 for
    "laptop", 6.0 for "telemetry" (once per million words), MAX_RARITY for a word never seen. The list
    (1.5 MB) loads on first use, about 0.3 s."""
    from wordfreq import zipf_frequency  # imported on first use: start-up stays fast

    return round(MAX_RARITY - zipf_frequency(word, "en", wordlist="large"), 2)


# Pairs of English words of opposite meaning, in their common forms: a closed class of the language, as the
# lists above, written from English usage and no collection. A question that asks about one of a pair
# over a quote that says the other and nowhere the first ("Who was Bohemond's son?" over "Bohemond, Robert's
# son... his father"; "Why does it run before the hook?" over "runs after the hook") asks something the
# quote does not say: SQuAD 2.0's writers made a fifth of its unanswerable questions so (Rajpurkar et al.,
# 2018, "antonym"), and a false premise about code swaps a behaviour the same way. The answer check reads
# it (answerability.features, "antonym_quoted"); the stems are compared as the keyword index stems words.
ANTONYMS = tuple(
    tuple(pair.split())
    for pair in """
    increase decrease, increasing decreasing, increased decreased, rise fall, raise lower, gain lose,
    win lose, winner loser, victory defeat, before after, earlier later, early late, first last,
    earliest latest, beginning end, begin end, start finish, largest smallest, large small, big small,
    biggest smallest, greatest least, most least, more less, more fewer, many few, highest lowest,
    high low, higher lower, maximum minimum, upper lower, top bottom, above below, over under,
    long short, longest shortest, longer shorter, wide narrow, thick thin, heavy light, deep shallow,
    fast slow, faster slower, fastest slowest, hot cold, warm cool, wet dry, bright dark, north south,
    east west, northern southern, eastern western, northernmost southernmost, left right, inner outer,
    internal external, inside outside, interior exterior, import export, include exclude,
    inclusion exclusion, input output, entry exit, arrive depart, arrival departure, accept reject,
    allow forbid, allow prohibit, permit forbid, legal illegal, agree disagree, approve disapprove,
    support oppose, positive negative, major minor, majority minority, add subtract,
    addition subtraction, multiply divide, open close, push pull, attack defend, offense defense,
    offensive defensive, ally enemy, friend enemy, love hate, rich poor, wealthy poor, strong weak,
    strength weakness, hard soft, difficult easy, simple complex, true false, correct incorrect,
    right wrong, success failure, succeed fail, pass fail, profit loss, buy sell, buyer seller,
    borrow lend, send receive, sender receiver, teacher student, parent child, father son,
    mother daughter, husband wife, king queen, male female, man woman, men women, boy girl,
    brother sister, birth death, born died, alive dead, young old, younger older, youngest oldest,
    new old, newer older, newest oldest, modern ancient, past future, previous next,
    accelerate decelerate, acceleration deceleration, ascend descend, ascent descent,
    expand contract, expansion contraction, inflate deflate, inflation deflation, attract repel,
    attraction repulsion, absorb emit, absorption emission, freeze melt, sink float, rural urban,
    public private, domestic foreign, national international, civilian military, secular religious,
    always never, present absent, presence absence, visible invisible, possible impossible,
    likely unlikely, able unable, ability inability, known unknown, common rare, usual unusual,
    natural artificial, formal informal, official unofficial, direct indirect, active passive,
    dependent independent, superior inferior, senior junior, advantage disadvantage,
    upstream downstream, uphill downhill, upward downward, increase reduce, increase decline,
    growth decline, expand shrink, rise decline, appear disappear, connect disconnect, enable disable,
    encourage discourage, like dislike, honest dishonest, regular irregular, relevant irrelevant,
    responsible irresponsible, mortal immortal, conscious unconscious,
    constitutional unconstitutional, stable unstable, certain uncertain, equal unequal, fair unfair,
    cheap expensive, odd even, even uneven, single multiple, singular plural, heavier lighter,
    heaviest lightest, thickest thinnest, widest narrowest, deepest shallowest, hottest coldest,
    warmest coolest, wettest driest, fewest most, smaller larger
    """.replace("\n", " ").split(",")
    if pair.strip()
)
