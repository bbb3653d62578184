"""The production-log record schema and its validator.

Hand-written rather than pydantic: mining validates every line of the traffic and must sustain
tens of thousands of records per second. Documented for humans in docs/traffic_schema.md.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from cogevol.core.errors import CogevolError

ROLES = frozenset({"system", "user", "assistant", "tool"})
THUMBS = frozenset({"up", "down"})
OPTIONAL_STR = ("session_id", "user_id", "locale", "client", "model")


class SchemaError(CogevolError, ValueError):
    """A record that does not follow the schema; the message names the field first."""

    @property
    def reason(self) -> str:
        """Countable reason code: `schema:<field>` with list indices dropped."""
        field = str(self).split(":", 1)[0]
        return "schema:" + field.split("[", 1)[0] + (field.split("]", 1)[1] if "]" in field else "")


@dataclass(slots=True)
class Conversation:
    conversation_id: str
    created_at: str
    messages: list[dict]
    feedback: dict
    session_id: str | None = None
    user_id: str | None = None
    locale: str | None = None
    client: str | None = None
    model: str | None = None


def _check_ts(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise SchemaError(f"{field}: expected ISO-8601 string, got {type(value).__name__}")
    try:
        dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise SchemaError(f"{field}: not an ISO-8601 timestamp: {value[:40]!r}") from None
    return value


def _check_int(fb: dict, key: str) -> int:
    v = fb.get(key, 0)
    if v is None:
        return 0
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise SchemaError(f"feedback.{key}: expected a non-negative integer, got {v!r}"[:160])
    return v


def _check_opt_str(fb: dict, key: str) -> str | None:
    v = fb.get(key)
    if v is not None and not isinstance(v, str):
        raise SchemaError(f"feedback.{key}: expected string or null, got {type(v).__name__}")
    return v or None


def validate(obj: object) -> Conversation:
    """Return a Conversation or raise SchemaError naming the first problem found."""
    if not isinstance(obj, dict):
        raise SchemaError(f"record: a JSON {type(obj).__name__}, not an object")
    cid = obj.get("conversation_id")
    if not isinstance(cid, str) or not cid.strip():
        raise SchemaError("conversation_id: missing or not a non-empty string")
    if "created_at" not in obj:
        raise SchemaError("created_at: missing")
    created = _check_ts(obj["created_at"], "created_at")
    msgs = obj.get("messages")
    if msgs is None:
        raise SchemaError("messages: missing")
    if not isinstance(msgs, list) or not msgs:
        raise SchemaError(f"messages: expected a non-empty list, got {type(msgs).__name__}")
    has_user = False
    for i, m in enumerate(msgs):
        if not isinstance(m, dict):
            raise SchemaError(f"messages[{i}]: expected an object")
        role, content = m.get("role"), m.get("content")
        if role not in ROLES:
            raise SchemaError(f"messages[{i}].role: unknown role {role!r}"[:120])
        if not isinstance(content, str):
            raise SchemaError(
                f"messages[{i}].content: expected string, got {type(content).__name__}"
            )
        if role == "user" and content.strip():
            has_user = True
    if not has_user:
        raise SchemaError("messages: no non-empty user turn")
    fb = obj.get("feedback") or {}
    if not isinstance(fb, dict):
        raise SchemaError(f"feedback: expected an object, got {type(fb).__name__}")
    thumb = fb.get("thumb")
    if thumb is not None and thumb not in THUMBS:
        raise SchemaError(f"feedback.thumb: expected 'up', 'down' or null, got {thumb!r}"[:120])
    feedback = {
        "thumb": thumb,
        "regenerations": _check_int(fb, "regenerations"),
        "edit_count": _check_int(fb, "edit_count"),
        "render_error": _check_opt_str(fb, "render_error"),
        "runtime_error": _check_opt_str(fb, "runtime_error"),
    }
    extras = {}
    for key in OPTIONAL_STR:
        v = obj.get(key)
        if v is not None and not isinstance(v, str):
            raise SchemaError(f"{key}: expected string, got {type(v).__name__}")
        extras[key] = v
    return Conversation(cid, created, msgs, feedback, **extras)
