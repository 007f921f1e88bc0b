"""The act engine: the request and result, their validation, the steps, settling and the delta.

- ``request``, ``result``: the act contract as msgspec Structs; ``validate``: untrusted input to
  an ``ActRequest``, or an ``InvalidRequest`` naming the field.
- ``keys``: key names and chords as CDP key events.
- ``steps``: one executor per step type, grouped by family (pointer, text, forms, navigation,
  observation).
- ``settle_decision`` (pure: when is the page done?) and ``settle_watch`` (the trio shell that
  feeds it CDP events and probes the page).
- ``delta``: the state change an act reports.
- ``secrets``: credentials for ``credentialRef`` and scrubbing them from every output.
- ``runner``: ``act()``, the top of the act path: ``preflight`` (every check before step 0),
  ``turn`` (one act or read per tab at a time), ``sequence`` (the step loop) and ``attempt``
  (one step, its retries); ``reading``: ``read_page()``.
"""
