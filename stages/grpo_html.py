"""DVC stage `grpo_html`: models/grpo_slide -> models/grpo_html (HTML GRPO; a pass-through with train.schedule: joint)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from grpo import main  # noqa: E402

if __name__ == "__main__":
    main("grpo_html")
