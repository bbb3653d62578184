"""What every stage does around its library call: what a stage reads, writes and counts
(stage_io, stage_counts), MLflow tracking and plots, and where curation runs (curation: the local
or Ray engine). Every stage package imports these, so this package imports none of them; the stage
list itself (cogevol/dag.py) sits above them all.

"Pipeline" keeps two senses, both of the whole run: this package (what is shared by its stages)
and the Prefect flow that runs the DAG (flows/pipeline.py). A stage's own run of its steps is
`<package>/pipeline.py` (curate: the filters in order; dedup: exact, SimHash, TF-IDF; distill:
ask, execute, admit), the library call these helpers are around.
"""
