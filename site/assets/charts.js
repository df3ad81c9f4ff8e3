// charts.js draws every chart of a page from its JSON data island.
//
// The generator (package site/chart) writes, for each chart, a container
// <div class="chart" id="chart-NAME" data-height="PX"> and the ECharts option
// in <script type="application/json" id="chart-NAME-option">. Nothing on the
// page is executable but this file and echarts.min.js, so a strict
// Content-Security-Policy holds. The theme follows prefers-color-scheme and
// switches when the reader's setting changes.
(function () {
  "use strict";
  if (typeof window.echarts === "undefined") {
    return; // the data tables stay open: they are the charts without JS
  }
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var drawn = [];

  // sitePath accepts only links the generator could have written: a path
  // on this site or an http(s) URL. Anything else is ignored.
  function safeURL(u) {
    if (typeof u !== "string" || u === "") {
      return null;
    }
    try {
      var url = new URL(u, window.location.href);
      if (url.protocol === "http:" || url.protocol === "https:") {
        return url.href;
      }
    } catch (e) {
      return null;
    }
    return null;
  }

  function draw(div) {
    var island = document.getElementById(div.id + "-option");
    if (!island) {
      return null;
    }
    var option = JSON.parse(island.textContent);
    var h = parseInt(div.getAttribute("data-height"), 10);
    if (h > 0) {
      div.style.height = h + "px";
    }
    var chart = window.echarts.init(div, dark && dark.matches ? "dark" : null, { renderer: "canvas" });
    chart.setOption(option);
    chart.on("click", function (p) {
      var target = p && p.data && safeURL(p.data.url);
      if (target) {
        window.location.assign(target);
      }
    });
    var linked = option.series.some(function (s) {
      return (s.data || []).some(function (d) { return d && d.url; });
    });
    if (linked) {
      div.classList.add("chart-clickable"); // a bar or cell opens its entries
    }
    var table = document.getElementById(div.id + "-data");
    if (table && table.tagName === "DETAILS") {
      table.open = false; // the chart now shows what the table showed
    }
    return chart;
  }

  function drawAll() {
    drawn.forEach(function (c) { c.dispose(); });
    drawn = [];
    var divs = document.querySelectorAll("div.chart[id]");
    for (var i = 0; i < divs.length; i++) {
      var c = draw(divs[i]);
      if (c) {
        drawn.push(c);
      }
    }
  }

  var pending = 0;
  window.addEventListener("resize", function () {
    window.clearTimeout(pending);
    pending = window.setTimeout(function () {
      drawn.forEach(function (c) { c.resize(); });
    }, 100);
  });
  if (dark && dark.addEventListener) {
    dark.addEventListener("change", drawAll);
  }
  drawAll();
})();
