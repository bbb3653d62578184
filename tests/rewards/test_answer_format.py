"""The format half of the floor: answers that are not pages, by their text and by what they show."""

from cogevol.rewards.answer_format import answer_fault, count_documents, cut_off, shown_fault
from cogevol.rewards.reasons import ReasonId
from cogevol.scoring.extract import extract_html

PAGE = "<!DOCTYPE html><html><head><style>b{color:red}</style></head><body><b>hi</b><script>x()</script></body></html>"


def fault(answer: str):
    f = answer_fault(answer, extract_html(answer))
    return f and f.id


def test_a_whole_page_and_a_fenced_page_in_a_chat_answer_are_pages():
    assert fault(PAGE) is None
    assert fault(f"Sure! Here is your page:\n```html\n{PAGE}\n```\nEnjoy, and tell me if you want changes.") is None
    # browsers close </body></html>: a page that stops after its last script is whole
    assert fault('<html><body><div id="a"></div><script>go()</script>') is None


def test_no_document():
    assert fault("Sorry, I can only describe it: use a canvas and requestAnimationFrame.") == ReasonId.NO_DOCUMENT


def test_two_documents_in_one_answer():
    twice = f"Version 1:\n```html\n{PAGE}\n```\nVersion 2, better:\n```html\n{PAGE}\n```"
    assert fault(twice) == ReasonId.TWO_DOCUMENTS
    assert fault(PAGE + "\n" + PAGE) == ReasonId.TWO_DOCUMENTS
    # markup quoted inside a script (a print window, an iframe's srcdoc) is no second document
    quoted = PAGE.replace("x()", "w.document.write('<!DOCTYPE html><html><body>p</body></html>')")
    assert fault(quoted) is None and count_documents(quoted) == 1
    framed = PAGE.replace("<b>hi</b>", '<iframe srcdoc="<!DOCTYPE html><html><body>p</body></html>"></iframe>')
    assert count_documents(framed) == 1


def test_a_document_cut_off_by_the_budget():
    assert cut_off("<html><body><script>let n = 1; function go() { n++;") == "script"
    assert cut_off("<html><head><style>body { color: red;") == "style"
    assert cut_off('<html><body><div class="a') == "tag"
    assert cut_off("<html><body><!-- a note that never") == "comment"
    assert cut_off("<html><body><p>text that stops mid-sentence") == ""
    assert cut_off("<p>x</p><script>go()</script><!-- generated 0.84 -->") == ""  # a closed comment at the end
    assert cut_off("<p>x</p><!-- a --><style>p{}</style><!-- b -->") == ""
    # a fenced answer whose closing fence never came: the block runs to the end, and it is cut
    cut = "Here you go:\n```html\n<!DOCTYPE html><html><body><script>\nconst a = [3, 1, 2];\nfor (let i = 0; i <"
    assert extract_html(cut).startswith("<!DOCTYPE html>")
    assert fault(cut) == ReasonId.TRUNCATED
    # a script that writes "<script" in a string is read to its own end
    assert cut_off('<html><body><script>var s = "<script src=x>";</script><p>ok</p>') == ""


def test_what_the_page_shows_markdown_and_code_as_text():
    assert shown_fault({"fences": 2, "codeChars": 200, "textChars": 600}).id == ReasonId.MARKDOWN_SHOWN
    assert shown_fault({"fences": 1, "codeChars": 120, "textChars": 600}).id == ReasonId.MARKDOWN_SHOWN
    assert shown_fault({"fences": 0, "codeChars": 400, "textChars": 420}).id == ReasonId.CODE_SHOWN
    # a page of prose with a line of code in it, or no measure at all: a page
    assert shown_fault({"fences": 0, "codeChars": 60, "textChars": 2000}) is None
    assert shown_fault({"fences": 0, "codeChars": 300, "textChars": 3000}) is None
    assert shown_fault(None) is None
