"""Reward composition: the HTML and slide verdicts (the page's evidence first, then the
request's reading: gate, defect terms, weights, reason ids). The functions TRL calls with them
live in cogevol/train/rewards.py."""
