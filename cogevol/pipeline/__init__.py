"""The DVC pipeline around the stages: the DAG that writes dvc.yaml (dag), what a stage reads,
writes and counts (stage_io, stage_counts), MLflow tracking and plots, and where curation runs
(curation: the local or Ray engine)."""
