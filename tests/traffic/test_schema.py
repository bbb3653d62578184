import pytest

from cogevol.traffic.schema import SchemaError, validate
from tests.conftest import conversation


def test_valid_record_passes():
    c = validate(conversation())
    assert c.conversation_id == "c-1" and c.feedback["regenerations"] == 0


@pytest.mark.parametrize(
    "patch, reason",
    [
        ({"messages": "make me slides"}, "schema:messages"),
        ({"messages": []}, "schema:messages"),
        ({"created_at": "yesterday"}, "schema:created_at"),
        ({"created_at": 1700000000}, "schema:created_at"),
        ({"conversation_id": ""}, "schema:conversation_id"),
        ({"feedback": {"regenerations": "many"}}, "schema:feedback.regenerations"),
        ({"feedback": {"thumb": "sideways"}}, "schema:feedback.thumb"),
        ({"locale": 5}, "schema:locale"),
        ({"messages": [{"role": "assistant", "content": "hi"}]}, "schema:messages"),
        ({"messages": [{"role": "user", "content": 3}]}, "schema:messages.content"),
    ],
)
def test_invalid_records_name_the_field(patch, reason):
    with pytest.raises(SchemaError) as e:
        validate(conversation(**patch))
    assert e.value.reason == reason


def test_missing_field_and_non_object():
    rec = conversation()
    del rec["messages"]
    with pytest.raises(SchemaError, match="messages: missing"):
        validate(rec)
    with pytest.raises(SchemaError, match="not an object"):
        validate([1, 2])
