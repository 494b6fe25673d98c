"""``kg serve``: a read-only SPARQL 1.1 endpoint and linked-data pages over the store.

app.py (routes, middleware) → sparql.py (the protocol), pages.py (HTML and RDF per IRI,
ontology, VoID), dumps.py (downloads) → context.py → pool.py → worker.py (processes that
hold the store read-only and run describe.py / sparql.execute / dumps.write_dump).
"""
