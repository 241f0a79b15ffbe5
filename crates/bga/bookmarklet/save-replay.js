// Save the Board Game Arena replay shown on this page as <table id>.json, the file `carc` reads.
//
// A bookmarklet: docs/bga.md holds its one-line `javascript:` form, made from this file by
// dropping the comment lines, trimming every line and joining them with one space
// (crates/bga/tests/bookmarklet.rs checks that the two agree, and the rules this file keeps so
// that joining is safe: comments only on lines of their own, every statement ended by `;`,
// no `%`, which a browser decodes in a `javascript:` address, no backquote).
// crates/bga/tests/bookmarklet_in_chromium.py runs the docs' line in headless Chromium.
//
// It reads only the page's own data and sends nothing anywhere: the file is made in the
// browser and handed to its download manager. Plain ES2017, so any current browser runs it.
//
// Wrapped in a function so that the bookmark's result is undefined: a `javascript:` address
// whose code ends in a value would replace the page with that value.
(() => {
  // The replay page's script keeps the notification packets in the global g_gamelogs. A bare
  // name (not window.g_gamelogs) also finds it if the page ever declares it with let or const.
  const packets = typeof g_gamelogs === "undefined" ? undefined : g_gamelogs;
  // Absent or empty: not the replay page, or it has not loaded the replay yet.
  if (!Array.isArray(packets) || packets.length === 0) {
    alert("carc: this page holds no Board Game Arena replay (g_gamelogs is missing or empty). Open the table's replay page and let it load, then click again.");
    return;
  }
  // The table id names the file (carc's game id is bga-<table id>). Every packet carries it;
  // the page address (?table=<id>) is the fallback. Anything but digits is refused, so the
  // name is never a path or a surprise.
  const inPackets = packets.map((p) => (p === null || typeof p !== "object" ? undefined : p.table_id)).find((t) => t !== undefined && t !== null);
  const inAddress = new URLSearchParams(window.location.search).get("table");
  const table = [inPackets, inAddress].map((t) => (t === undefined || t === null ? "" : String(t))).find((t) => /^[0-9]+$/.test(t));
  if (table === undefined) {
    alert("carc: no table id found (neither a number in the replay's packets nor table=<number> in the page address), so nothing was saved.");
    return;
  }
  // BGA's own envelope around the packets, as its replay data is served; carc reads it as is.
  let text;
  try {
    text = JSON.stringify({ status: 1, data: { valid: 1, data: packets } });
  } catch (e) {
    alert("carc: the replay data could not be written out (" + e + "), so nothing was saved.");
    return;
  }
  // A download link to an in-memory file, clicked: the browser saves it, normally in Downloads.
  // The link is put in the page for the click (Firefox needs that) and taken out at once; the
  // memory is released a minute later, long after the browser has read it.
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = table + ".json";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
})();
