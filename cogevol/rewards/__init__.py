"""Reward composition: hard-fail gate, defect terms, TRL-compatible reward functions."""
