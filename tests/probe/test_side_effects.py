"""A control whose response is off the screen is live: an Export that downloads a file (a detached
<a download> clicked by script, or a download link), a Copy that writes the clipboard, a Print.
A Bold button that issues its editing command with nothing selected. A button that does nothing
stays dead. Real Chromium."""

import asyncio

import pytest

from cogevol.scoring.local import ScoringSettings, score_pages

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PAGE = """<body><h1>Sales</h1><table><tr><td>Jan</td><td>3</td></tr></table>
<button id=csv>Export CSV</button> <button id=copy>Copy</button> <button id=cut>Copy (old way)</button>
<button id=prt>Print</button> <a id=dl href="data:text/plain,1" download="a.txt">Download</a>
<button id=dead>Share</button> <div contenteditable>note</div> <button id=bold>B</button>
<script>
csv.onclick = () => {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob(['month,n\\nJan,3'], {type: 'text/csv'}));
  a.download = 'sales.csv'; a.click();
};
copy.onclick = () => navigator.clipboard.writeText('Jan,3');
cut.onclick = () => { const t = document.createElement('textarea'); t.value = 'Jan,3';
  document.body.appendChild(t); t.select(); document.execCommand('copy'); t.remove(); };
prt.onclick = () => window.print();
dead.onclick = () => {};
bold.onclick = () => document.execCommand('bold');
</script>"""


@pytest.mark.parametrize("method", ["twin", "baseline"])
def test_responses_off_the_screen_are_live(method):
    # the baseline method (a page the twin cannot follow) reads them as signatures
    settings = ScoringSettings.from_params({"probe": {"harness": {"counterfactual": method}}})
    row = asyncio.run(score_pages([("fx", PAGE)], settings, requests={"fx": "A sales table with export buttons"}))[0]
    assert row["counterfactual"] == method or (method, row["counterfactual"]) == ("twin", "idle-state")
    verdicts = {c["label"]: c.get("verdict") for c in row["controls"]}
    evidence = {c["label"]: c.get("evidence", "") for c in row["controls"]}
    for label in ("Export CSV", "Copy", "Copy (old way)", "Print", "Download", "B"):
        assert verdicts[label] == "live", (label, verdicts, evidence)
    assert "downloads a file" in evidence["Export CSV"]
    assert "clipboard" in evidence["Copy"]
    assert "edits the text (bold)" in evidence["B"]  # nothing selected: nothing visible changes
    assert verdicts["Share"] == "dead", evidence
