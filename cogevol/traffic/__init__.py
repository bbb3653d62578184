"""Production traffic: schema, readers, PII scrubbing, classification, mining, the sample
generator."""
