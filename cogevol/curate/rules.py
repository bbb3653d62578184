"""Rule-based filters for the seven admissibility axes of Cookie-Bench (appendix A.2).

Patterns cover the eight languages of the traffic. They are deliberately specific (a phrase,
not a word), so that "a quiz about the French Revolution" is not mistaken for violence and
"use the Canvas API" is not mistaken for a private back end; the LLM judge backend covers the
subtler cases.
"""

from __future__ import annotations

import re

from cogevol.core.text import tokens
from cogevol.curate.base import Axis, Filter, PatternFilter
from cogevol.dedup.verify import FILLER, FILLER_CJK
from cogevol.traffic import pii
from cogevol.traffic.classify import classify


class SafetyFilter(PatternFilter):
    AXIS = Axis(
        "safety",
        "content that would be inadmissible regardless of task realism (harmful, illegal, or "
        "targeted content)",
        auto_reject=True,
        reasons={
            "phishing": "phishing or credential theft",
            "malware": "malware, ransomware, cryptojacking",
            "weapons": "weapons or violence",
            "self_harm": "self-harm",
        },
    )
    patterns = {
        "phishing": [
            r"phishing",
            r"fake\s+\w*\s*log-?in",
            r"(steal|harvest|collect)\w*\s+(\w+\s+){0,3}(passwords?|credentials|logins?)",
            r"sends?\s+(the\s+)?(entered\s+)?passwords?",
            r"keylog",
            r"record\w*\s+(\w+\s+){0,3}keystrokes",
            r"钓鱼",
            r"仿冒.{0,6}登录",
            r"(收集|盗取|窃取|偷).{0,8}(密码|账号)",
            r"偷偷记录",
            r"键盘输入并发送",
            r"robar\s+contraseñas",
            r"página\s+falsa",
            r"voler\s+les\s+mots\s+de\s+passe",
            r"passwörter\s+stehlen",
            r"roubar\s+senhas",
            r"フィッシング",
            r"パスワードを盗",
            r"피싱",
        ],
        "malware": [
            r"malware",
            r"ransomware",
            r"virus\s+that",
            r"mines?\s+cryptocurrency",
            r"crypto-?jack",
            r"木马",
            r"病毒",
            r"挖矿",
        ],
        "weapons": [
            r"\b(pipe\s+)?bomb\b",
            r"explosives?",
            r"炸弹",
            r"爆炸物",
            r"bombe\b",
            r"bomba\b",
            r"爆弾",
            r"폭탄",
        ],
        "self_harm": [r"suicide\s+method", r"how\s+to\s+kill\s+myself", r"自杀方法"],
    }


class PrivacyFilter(Filter):
    """Unredacted PII or credentials left in a request. Redacted placeholders (<EMAIL>...) are
    fine by default: the miner removed the data, the task survives."""

    AXIS = Axis(
        "privacy",
        "personally identifiable information, credentials, or named non-public entities that "
        "require redaction (placeholders such as <EMAIL> are already redacted and fine)",
        auto_reject=True,
        reasons={
            "unredacted_pii": "personal data the miner did not redact (detail: which kinds)",
            "credential": "the request carries a credential (<SECRET>)",
            "redacted_personal_data": "redacted personal data, with filter.drop_redacted on",
        },
    )

    def __init__(self, drop_redacted: bool = False):
        self.drop_redacted = drop_redacted

    def check(self, record: dict) -> tuple[str, str] | None:
        text = record["request"]
        hits = pii.find(text)
        if hits:
            return "unredacted_pii", ", ".join(sorted(hits))
        if "<SECRET>" in text:
            return "credential", "<SECRET>"
        m = self.drop_redacted and re.search(r"<(EMAIL|PHONE|NAME|NATIONAL_ID|CARD|IP)>", text)
        if m:
            return "redacted_personal_data", m.group(0)
        return None


class TaskDirectionFilter(Filter):
    """The request must ask for a slide deck or a self-contained front-end page."""

    AXIS = Axis(
        "task_direction",
        "the request actually specifies a slide deck or a front-end web page, not a backend, "
        "data-science, general-purpose coding, or non-coding request",
        auto_reject=False,
        reasons={"off_scope": "not a slide or front-end request (detail: what it asks for)"},
    )

    def __init__(self, allowed: tuple[str, ...] = ("slide", "html")):
        self.allowed = tuple(allowed)

    def check(self, record: dict) -> tuple[str, str] | None:
        category = record.get("category") or classify(record["request"]).category
        if category not in self.allowed:
            return "off_scope", str(record.get("subcategory") or category)
        return None


# how much of a request each script carries: a Chinese word is about two characters, a
# Japanese or Korean word about three
_UNIT = {"han": 0.5, "kana": 1 / 3, "hangul": 1 / 3}


def content_units(text: str) -> float:
    """Rough count of content words (filler words and polite phrases do not count)."""
    units = 0.0
    for t in tokens(text.lower()):
        if t.isdigit() or t in FILLER or t in FILLER_CJK:
            continue
        cp = ord(t[0])
        if len(t) == 1 and 0x3040 <= cp <= 0x30FF:
            units += _UNIT["kana"]
        elif len(t) == 1 and 0xAC00 <= cp <= 0xD7AF:
            units += _UNIT["hangul"]
        elif len(t) == 1 and (0x3400 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF):
            units += _UNIT["han"]
        else:
            units += 1
    return units


class IntentClarityFilter(Filter):
    """Single-phrase prompts with no operational definition ("make a website", "做个游戏")."""

    AXIS = Axis(
        "intent_clarity",
        "the objective is not ambiguous, internally contradictory, or under-specified to the "
        "point that no well-formed implementation is determinable",
        auto_reject=False,
        reasons={"under_specified": "fewer content words than filter.min_content_units"},
    )

    def __init__(self, min_units: float = 2.0):
        self.min_units = min_units

    def check(self, record: dict) -> tuple[str, str] | None:
        units = content_units(record["request"])
        if units < self.min_units:
            return "under_specified", f"{units:.1f} content words < {self.min_units}"
        return None


class ExecutabilityFilter(PatternFilter):
    """Must be realisable as a self-contained page in a browser sandbox: no real payments,
    messaging, accounts or private data stores."""

    AXIS = Axis(
        "executability",
        "the request can be realized as a self-contained artifact runnable in a standard "
        "browser sandbox without proprietary services, live external APIs, or private datasets",
        auto_reject=True,
        reasons={
            "real_transactions": "needs real payments or money transfers",
            "real_messaging": "needs real e-mails, SMS or messages sent",
            "server_or_database": "needs a server, a database or a large private dataset",
        },
    )
    patterns = {
        "real_transactions": [
            r"real\s+(bank|payments?|money|transactions?)",
            r"(process|handle)\w*\s+(\w+\s+){0,2}payments?",
            r"transfer\s+(real\s+)?money",
            r"真正.{0,6}(付款|支付|转账)",
            r"(处理|实现).{0,4}信用卡付款",
            r"pagos\s+reales",
            r"echte\s+zahlungen",
            r"pagamentos\s+reais",
            r"実際に.{0,6}(振込|送金|決済)",
            r"실제로\s*송금",
        ],
        "real_messaging": [
            r"send\w*\s+(\w+\s+){0,3}real\s+(e-?mails?|sms|messages?)",
            r"能真的.{0,4}发消息",
            r"sms\s+reales",
            r"vrais\s+e-?mails",
            r"real\s+sms",
        ],
        "server_or_database": [
            r"(store|save)\w*\s+(\w+\s+){0,3}in\s+(our|my|the)\s+database",
            r"connect\w*\s+to\s+(my|our)\s+(\w+\s+)?(database|server|mysql)",
            r"连接.{0,6}数据库",
            r"\d+\s*(gb|tb)\s+dataset",
            r"log\s+in\s+with\s+their\s+real",
        ],
    }


class DependencyFilter(PatternFilter):
    """Specific external URLs, private back ends, personal files or credentials."""

    AXIS = Axis(
        "dependency",
        "fulfilment does not require specific third-party URLs, paywalled assets, or "
        "user-specific credentials",
        auto_reject=False,
        reasons={
            "external_url": "a specific external URL",
            "private_back_end": "a private or internal back end",
            "personal_account": "a personal account, file store or key",
        },
    )
    patterns = {
        "external_url": [r"https?://\S+", r"\bwww\.\S+\.\w+"],
        "private_back_end": [
            r"\b(our|my|company|internal|private)\s+(internal\s+)?(api|server|backend|database|system|sap)\b",
            r"internal\s+api",
            r"内部(api|接口|系统)?",
            r"公司的(系统|数据|接口)",
            r"社内",
            r"회사\s*내부",
            r"(api|servidor)\s+(privad[ao]|interno)",
            r"serveur\s+interne",
            r"internen?\s+[\w-]*system",
            r"servidor\s+privado",
        ],
        "personal_account": [
            r"\bmy\s+(google\s+drive|figma|dropbox|stripe|notion|onedrive)",
            r"(secret|api)\s+key",
            r"我的?figma",
            r"网盘",
        ],
    }


class LogicFilter(Filter):
    """Mutually unsatisfiable constraints and dangling references to things the model never sees."""

    AXIS = Axis(
        "logic",
        "the functional specification has no mutually unsatisfiable constraints or dangling "
        "references",
        auto_reject=True,
        reasons={
            "dangling_reference": "refers to something the model never sees (an attachment, "
            "a previous version)",
            "contradiction": "mutually unsatisfiable constraints (detail: which)",
        },
    )
    DANGLING = re.compile(
        "|".join(
            [
                r"\b(the\s+)?(file|image|screenshot|document|pdf|design|picture)\s+(i|we)\s+(sent|attached|uploaded|shared)",
                r"\battached\b",
                r"\bas\s+(in|with)\s+the\s+(previous|last)\b",
                r"\blike\s+the\s+(previous|last|other)\s+one\b",
                r"\bsame\s+as\s+(before|the\s+file|last\s+time)",
                r"\bthe\s+image\s+below\b",
                r"上次",
                r"之前那个",
                r"附件",
                r"上面的图",
                r"versión\s+anterior",
                r"archivo\s+adjunto",
                r"fichier\s+joint",
                r"angehängte",
                r"前回",
                r"添付",
                r"arquivo\s+anexado",
                r"저번에",
                r"첨부",
            ]
        ),
        re.I,
    )
    CONTRADICTIONS = [
        (
            "no JavaScript but interactive",
            re.compile(
                r"(without|no)\s+(any\s+)?javascript|不能用\s*javascript|sans\s+javascript|ohne\s+javascript",
                re.I,
            ),
            re.compile(
                r"keyboard|instant|interactive|grades?|game|键盘|游戏|交互|实时|clavier|tastatur",
                re.I,
            ),
        ),
        (
            "single slide with many slides",
            re.compile(r"single[- ]slide|one[- ]slide|只有一页|una\s+sola\s+diapositiva", re.I),
            re.compile(r"\b([2-9]|\d\d+)\s+slides|[二三四五六七八九十]页|\d+\s*页内容", re.I),
        ),
    ]

    def check(self, record: dict) -> tuple[str, str] | None:
        text = record["request"]
        m = self.DANGLING.search(text)
        if m:
            return "dangling_reference", m.group(0)
        for name, a, b in self.CONTRADICTIONS:
            if a.search(text) and b.search(text):
                return "contradiction", name
        return None


# the seven axes in Cookie-Bench A.2's order: cogevol.curate.axes reads their declarations
FILTERS = (
    SafetyFilter,
    PrivacyFilter,
    TaskDirectionFilter,
    IntentClarityFilter,
    ExecutabilityFilter,
    DependencyFilter,
    LogicFilter,
)


def default_filters(cfg: dict | None = None) -> list[Filter]:
    """The seven axes, configured from params.yaml's filter group."""
    cfg = cfg or {}
    return [
        SafetyFilter(),
        PrivacyFilter(drop_redacted=cfg.get("drop_redacted", False)),
        TaskDirectionFilter(tuple(cfg.get("allowed_categories", ("slide", "html")))),
        IntentClarityFilter(cfg.get("min_content_units", 2.0)),
        ExecutabilityFilter(),
        DependencyFilter(),
        LogicFilter(),
    ]
