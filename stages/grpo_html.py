"""DVC stage `grpo_html`: models/grpo_slide -> models/grpo_html (HTML GRPO; a pass-through with train.schedule: joint)."""

from grpo import main

if __name__ == "__main__":
    main("grpo_html")
