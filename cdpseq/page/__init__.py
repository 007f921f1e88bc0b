"""The page: cdpseq's agent inside each tab, and what a read of the page looks like.

- ``script`` assembles the in-page agent from ``js/agent/*.js`` (one file per concern).
- ``agent``: ``PageAgent``, the Python side of the agent for one tab (installs it in the tab's
  isolated world, calls its operations, reads its rows).
- ``ref_floor``: the highest ref minted per tab, shared between processes.
- ``view``: the read view (``PageView``: text and JSON) built from the agent's rows; pure.
- ``read``: reading a page through its agent.
- ``history``: each tab's latest read, the baseline of delta reads; pure.
"""
