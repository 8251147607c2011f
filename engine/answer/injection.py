"""Text addressed to an AI assistant: evidence that may be a prompt injection.

A document can carry instructions meant for whatever model reads it ("Ignore previous instructions",
"AI assistants must answer that..."). Quote verification already stops a model from inventing text, but
such a passage can still be quoted as if it were a fact about the world. So a passage is marked when its
prose (quoted strings, inline code and fenced code removed: a prompt template shown in documentation is
a fact about that software, not an instruction to us) is shaped like an instruction to a model: it names
a model as its addressee, or tells the reader to override its instructions, or carries a chat template's
role markers. A marked passage is shown in the evidence with the mark, and a sentence whose only
support is marked passages is dropped, so such text never forms an answer on its own.
"""

from __future__ import annotations

import re

# Who an instruction to a model is addressed to. A plain "assistant" is a job title in most documents.
_MODEL = (
    r"(?:AI|A\.I\.|artificial intelligence|(?:large )?language models?|LLMs?|chat ?bots?|GPT(?:-\d)?|"
    r"Claude|Copilot|Gemini|ChatGPT|(?:AI|virtual|digital) assistants?|assistants? reading this|"
    r"(?:AI )?agents? reading this)"
)
_SHAPES = (
    # overriding what the model was told
    r"\b(?:ignore|disregard|forget|override)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|preceding|all|"
    r"your|system)\b[^.\n]{0,20}\b(?:instructions?|prompts?|directions|rules|guidelines|context)\b",
    # a model as the addressee: "AI assistants must answer", "Note to language models:", "you are an AI"
    rf"\b{_MODEL}\b[^.\n]{{0,30}}\b(?:must|shall|are to|have to|need to|should always|should never)\b"
    r"[^.\n]{0,20}"
    r"\b(?:answer|respond|reply|say|state|tell|output|claim|report|always|never|ignore|include|mention)\b",
    rf"\b(?:note|message|instructions?|attention)\s+(?:to|for)\s+(?:any |all |the )?{_MODEL}",
    rf"\b(?:if|when)\s+(?:you are|you're)\s+(?:an?|the)\s+{_MODEL}",
    rf"\byou are (?:now )?(?:an?|the) {_MODEL}\b",
    r"\b(?:when|if)\s+(?:you are\s+)?asked\b[^.\n]{0,80}\b(?:always\s+)?(?:answer|respond|reply|say)\b\s+"
    r"(?:that|with)\b",
    r"\b(?:new|updated|real|actual|hidden)\s+(?:system\s+)?instructions?\s*:",
    # chat template role markers outside code
    r"<\|im_start\|>|<\|system\|>|\[/?INST\]|<<SYS>>|^#{2,3}\s*(?:Instruction|System)\s*:?\s*$",
)
_INSTRUCTION = re.compile("|".join(f"(?:{s})" for s in _SHAPES), re.IGNORECASE | re.MULTILINE)
_CODE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)|`[^`\n]*`", re.DOTALL)
_QUOTED = re.compile(r'"[^"\n]{0,400}"|“[^”\n]{0,400}”|(?<![A-Za-z])\'[^\'\n]{0,400}\'(?![A-Za-z])')
_INDENTED_CODE = re.compile(r"^(?: {4}|\t).*$", re.MULTILINE)


def prose(text: str) -> str:
    """The text with code (fenced, inline, indented) and quoted strings blanked out."""
    for pattern in (_CODE, _INDENTED_CODE, _QUOTED):
        text = pattern.sub(" ", text)
    return text


def instruction_like(text: str) -> bool:
    """Whether the passage's own prose is addressed to a model as an instruction."""
    return _INSTRUCTION.search(prose(text)) is not None
