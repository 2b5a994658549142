"""The conformance checker behind ``hedgerow check-peer``: a strict counterpart that drives
another implementation's peer through docs/protocol.md over real CURVE links and reports,
scenario by scenario, where it deviates from the document.

* `report`: a scenario's result (pass/fail, the section, the first deviation) and the
  summary, as text or JSON;
* `driver`: the checker's own sockets: one raw peer (a `Node` and the codec) that sends
  exactly what a scenario tells it to and keeps everything it receives;
* `session`: the scenarios both sides run once seated (seeding to the end report);
* `departures`: the checker's seat departs, is taken over and reclaimed, and the forged
  motions, takeovers and handbacks the peer must not believe (§5.9);
* `sealed`: the checker's own party in a sealed deck and its checks of the peer's sealed
  messages (§10); `sealedplay`: a whole game at a sealed table, the sealed scenarios and
  the hostile faults (``--halt``);
* `hosted`: the scenarios run when the checker joins the peer under test's table;
* `hosting`: the scenarios run when the peer under test joins the checker's table.
"""
