from collections import Counter

from cogevol.traffic.pii import find, scrub


def test_scrubs_contacts_ids_and_names_in_several_languages():
    c = Counter()
    out = scrub("My name is Emily Johnson. Mail emily.j@school.edu or call (415) 555-1234. SSN 123-45-6789", c)
    assert out == "My name is <NAME>. Mail <EMAIL> or call <PHONE>. SSN <NATIONAL_ID>"
    assert c == {"name": 1, "email": 1, "phone": 1, "national_id": 1}
    zh = scrub("我叫张伟，邮件x@qq.com或打13812345678，身份证11010519900307123X")
    assert zh == "我叫<NAME>，邮件<EMAIL>或打<PHONE>，身份证<NATIONAL_ID>"
    assert scrub("私の名前は佐藤健です。") == "私の名前は<NAME>です。"
    assert scrub("call +34 612 345 678 now") == "call <PHONE> now"


def test_secrets_and_ips():
    assert scrub("key sk-abcdefghijklmnopqrstuv on 192.168.1.10") == "key <SECRET> on <IP>"
    assert scrub("password: hunter2") == "<SECRET>"


def test_leaves_ordinary_text_alone():
    text = "Make a 10-slide deck on Newton's laws for 7th grade, 2026 edition"
    assert scrub(text) == text
    assert not find(text)
    assert not find("My name is <NAME>.")
