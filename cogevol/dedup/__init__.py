"""Query deduplication: normalisation, exact, SimHash, TF-IDF, verification, audit CSVs."""
