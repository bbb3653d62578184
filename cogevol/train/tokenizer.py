"""A byte-level BPE tokenizer learned from the project's own data, with a Qwen chat template.

The embedded profile cannot download Qwen's tokenizer, and a 150k vocabulary would dominate a
tiny model anyway. So we learn a small one (a few thousand merges) on what the model will read
and write: the curated requests, the system prompts, the SFT targets when they exist, and a
fixed sample of HTML / CSS / JS / slide-JSON vocabulary so pages and decks do not fall apart
into single bytes. Byte-level means any text (any language, any emoji) still round-trips.

Special tokens and the chat template follow Qwen3 (`<|im_start|>role\\n...<|im_end|>\\n`), so
the same code paths serve the tiny model and Qwen/Qwen3-4B-Base.
"""

from __future__ import annotations

from collections.abc import Iterable

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

PAD, IM_START, IM_END = "<|endoftext|>", "<|im_start|>", "<|im_end|>"
SPECIAL_TOKENS = [PAD, IM_START, IM_END]

# Qwen2/3's pre-tokenisation pattern: contractions, letter runs, single digits, punctuation runs,
# newlines and spaces kept apart so merges never cross a word or a line boundary.
_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)

# Qwen chat template. `{% generation %}` marks the assistant's tokens (end-of-turn included) so
# TRL's assistant_only_loss works too; SFT here uses prompt/completion masking.
CHAT_TEMPLATE = (
    "{%- for message in messages %}"
    "{%- if message['role'] == 'assistant' %}"
    "{{- '<|im_start|>assistant\\n' }}"
    "{%- generation %}{{- message['content'] + '<|im_end|>' }}{%- endgeneration %}"
    "{{- '\\n' }}"
    "{%- else %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}"
    "{%- endif %}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)

# What the model writes, so its building blocks get merges even before any SFT data exists.
VOCAB_SAMPLES = [
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n<title></title>\n'
    "<style>\nbody { margin: 0; font-family: sans-serif; background: #ffffff; color: #1f2937; }\n"
    ".container { display: flex; flex-direction: column; align-items: center; padding: 16px; }\n"
    "button { padding: 8px 16px; border: none; border-radius: 8px; cursor: pointer; }\n"
    "canvas { width: 100%; max-width: 640px; height: auto; }\n"
    "@media (max-width: 768px) { .container { padding: 8px; } }\n</style>\n</head>\n<body>\n"
    '<div class="container" id="app">\n<h1>Title</h1>\n<p id="status">Ready</p>\n'
    '<button id="start">Start</button>\n<button id="reset">Reset</button>\n'
    '<input type="range" id="speed" min="0" max="100" value="50">\n'
    '<select id="mode"><option value="a">A</option></select>\n'
    '<canvas id="canvas" width="640" height="360"></canvas>\n</div>\n<script>\n'
    "const canvas = document.getElementById('canvas');\nconst ctx = canvas.getContext('2d');\n"
    "let count = 0;\nfunction draw() {\n  ctx.clearRect(0, 0, canvas.width, canvas.height);\n"
    "  ctx.fillStyle = '#2563eb';\n  ctx.fillRect(10, 10, count * 5, 40);\n"
    "  requestAnimationFrame(draw);\n}\n"
    "document.getElementById('start').addEventListener('click', () => {\n"
    "  count += 1;\n  document.getElementById('status').textContent = `Count: ${count}`;\n});\n"
    "document.querySelector('#reset').onclick = function () { count = 0; };\n"
    "for (let i = 0; i < 10; i++) { if (i % 2 === 0) { console.log(i); } else { return; } }\n"
    "window.addEventListener('keydown', (e) => { if (e.key === 'ArrowLeft') { x -= 1; } });\n"
    "draw();\n</script>\n</body>\n</html>",
    '{"version": "cogevol-slides/1", "theme": {"background": "#ffffff", "text": "#1f2937", '
    '"accent": "#2563eb", "font": "sans"}, "slides": [{"elements": [{"type": "title", '
    '"text": "Title", "x": 80, "y": 40, "w": 1120, "h": 90, "size": 40}, {"type": "bullets", '
    '"items": ["First point", "Second point"], "x": 80, "y": 160, "w": 560, "h": 400, "size": 24}, '
    '{"type": "chart", "chart": "bar", "title": "Results", "categories": ["A", "B"], '
    '"series": [{"name": "2024", "values": [1.5, 3]}], "x": 680, "y": 160, "w": 520, "h": 400}, '
    '{"type": "table", "header": ["Name", "Value"], "rows": [["a", "1"]], "x": 80, "y": 580, '
    '"w": 1120, "h": 120}, {"type": "image", "alt": "diagram", "x": 0, "y": 0, "w": 10, "h": 10}, '
    '{"type": "shape", "shape": "rect", "fill": "#dbeafe", "x": 0, "y": 0, "w": 1280, "h": 720}, '
    '{"type": "text", "text": "Note", "x": 80, "y": 650, "w": 1120, "h": 40, "size": 18}]}]}',
]


def train_bpe(texts: Iterable[str], vocab_size: int, min_frequency: int = 2) -> Tokenizer:
    """Learn a byte-level BPE over `texts`. Deterministic: same texts in the same order, same
    vocabulary (the trainer breaks count ties by the pair itself, not by hash order)."""
    tok = Tokenizer(models.BPE(byte_fallback=False))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(_SPLIT), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=min_frequency,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(list(texts), trainer=trainer)
    return tok


def wrap(tok: Tokenizer, model_max_length: int):
    """The `tokenizers` object as a transformers fast tokenizer with Qwen's special tokens."""
    from transformers import PreTrainedTokenizerFast

    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        eos_token=IM_END,  # generation stops at the end of the assistant turn
        pad_token=PAD,
        unk_token=None,
        bos_token=None,
        model_max_length=model_max_length,
        padding_side="left",  # batched generation pads prompts on the left
        chat_template=CHAT_TEMPLATE,
        clean_up_tokenization_spaces=False,
    )
