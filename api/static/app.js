// TicketLedger audit viewer: small progressive enhancements; every page works without them.
"use strict";
(function () {
  // Episode page: hovering a timeline row highlights its point on the score chart, and back.
  const chart = document.getElementById("score-chart");
  const rows = document.querySelectorAll("table.timeline tbody tr[data-step]");
  function mark(step, on) {
    if (chart) {
      const point = chart.querySelector('circle[data-step="' + step + '"]');
      if (point) point.classList.toggle("active", on);
    }
    rows.forEach(function (row) {
      if (row.dataset.step === String(step)) row.classList.toggle("highlight", on);
    });
  }
  rows.forEach(function (row) {
    row.addEventListener("mouseenter", function () { mark(row.dataset.step, true); });
    row.addEventListener("mouseleave", function () { mark(row.dataset.step, false); });
  });
  if (chart) {
    chart.querySelectorAll("circle[data-step]").forEach(function (point) {
      point.addEventListener("mouseenter", function () { mark(point.dataset.step, true); });
      point.addEventListener("mouseleave", function () { mark(point.dataset.step, false); });
    });
  }
  // Diff page: bring the first divergence into view.
  const first = document.getElementById("first-divergence");
  if (first && !location.hash) first.scrollIntoView({ block: "center" });
})();
