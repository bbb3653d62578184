"""DVC stage `grpo_slide`: models/sft -> models/grpo_slide (slide GRPO; both modalities with train.schedule: joint)."""

from grpo import main

if __name__ == "__main__":
    main("grpo_slide")
