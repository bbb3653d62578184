"""DVC stage `grpo_slide`: models/sft -> models/grpo_slide (slide GRPO; both modalities with train.schedule: joint)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from grpo import main  # noqa: E402

if __name__ == "__main__":
    main("grpo_slide")
