"""The text model: the document model readers yield, witness alignment, normalization, and
what the readers know of the 仪礼 (its catalogue of rites, the SKOS vocabularies)."""
