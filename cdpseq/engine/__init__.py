"""The act engine: the request and result, their validation, the steps, settling and the delta.

- ``request``: the act request (every step type and option) as msgspec Structs.
- ``result``: the act result (each step's outcome, the tab, the error codes) as msgspec Structs.
- ``reports``: the typed parts of a result (the state change, the dialogs, step effects).
- ``validate``: untrusted input to an ``ActRequest``, or an ``InvalidRequest`` naming the field.
- ``request_rules``: what a request must also satisfy once its types hold (one field cannot say).
- ``shown``: how requests and their parts are shown in messages; targets parsed one way.
- ``runner``: ``act()``, the top of the act path (validated once, then ``run_validated``).
- ``preflight``: every check before step 0, and the one "nothing ran" result they answer.
- ``turn``: one act or read per tab at a time.
- ``sequence``: the step loop (setup, step, finish) and the result it assembles.
- ``attempt``: one step: its precondition, its timeout, its retries.
- ``reading``: ``read_page()``.
- ``multi``: ``act_many``, acts in several tabs of one browser in one call.
- ``steps``: one executor per step type, grouped by family (pointer, text, forms, navigation,
  observation, ...).
- ``preconditions``: a step's ``if``, the element state awaited before the step runs.
- ``keys``: key names and chords as CDP key events.
- ``settle_decision``: when is the page done? (pure: fed observations, asked ``decide(now)``).
- ``settle_opened``: the tabs and downloads a page opens during an act, and the waits for them.
- ``settle_watch``: the trio shell that feeds the settle decision CDP events and page probes.
- ``tab_network``: what an act's watch enables on a tab once (Network, Runtime, iframes,
  downloads) and the download directory.
- ``effects``: the tab's console and request log, and what each step caused beyond the DOM.
- ``delta``: the state change an act reports.
- ``dialogs``: JavaScript dialogs handled by the request's policy, reported, never a hang.
- ``devices``: device emulation as data (named devices, settings, their CDP commands; pure).
- ``emulation``: a tab's device emulation, noted in the browser and applied by every process.
- ``url_guard``: stops the navigations an act's steps lead to a host the policy refuses.
- ``secrets``: credentials for ``credentialRef`` and scrubbing them from every output.
"""
