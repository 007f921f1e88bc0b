"""The page: cdpseq's agent inside each tab, and what a read of the page looks like.

- ``script``: assembles the in-page agent from ``js/agent/*.js`` (one file per concern).
- ``agent``: ``PageAgent``, the Python side of the agent for one tab (installs it in the tab's
  isolated world, calls its operations, reads its rows).
- ``entries``: the agent's entry points as the expressions that call them (the one module
  that names the agent's global).
- ``answers``: what the agent answers, as Structs, and its refusals (``AgentError``).
- ``frames``: the agents of out-of-process iframes, so their elements get refs, act and change.
- ``frame_steps``: steps in those iframes (a frame's ref, a selector chain into a frame).
- ``targets``: what an agent operation acts on (``Ref``, ``Selector``, ``Node``, ``WholePage``).
- ``tab_notes``: what every process must agree on about a tab (the ref floor, a dialog left
  open), kept in the browser's own cookie jar.
- ``view``: the read view (``PageView``: text and JSON) built from the agent's rows; pure.
- ``read``: reading a page through its agent (in full, again cheaply, or as a delta against
  the document's previous read, whose baseline lives in the page's shared world).

The agent itself is JavaScript, not a Python module: ``js/agent/*.js``, among them ``model.js``,
the page model that reads and deltas share; ``js/timers.js`` is the timer watch that settling
evaluates in the page's main world.
"""
