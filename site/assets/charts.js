// charts.js draws every chart of a page from its JSON data island.
//
// The generator (package site/chart) writes, for each chart, a container
// <div class="chart" id="chart-NAME" data-height="PX"> and the ECharts option
// in <script type="application/json" id="chart-NAME-option">. Nothing on the
// page is executable but this file and echarts.min.js, so a strict
// Content-Security-Policy holds. The theme follows prefers-color-scheme and
// switches when the reader's setting changes.
//
// The layout loads this file deferred, and this file loads the chart library
// (echarts.min.js, beside it) only when a chart comes near the viewport, so
// that neither delays the first paint; each chart is drawn when it comes
// near. Until then, and without JavaScript, the data table under each chart
// stays open: it is the chart's content.
(function () {
  "use strict";
  var me = document.currentScript;
  var divs = document.querySelectorAll("div.chart[id]");
  if (divs.length === 0 || !me) {
    return;
  }
  // Every chart's box takes its final height at once, and its table
  // closes (the chart will show what it shows), so that drawing the chart
  // later moves nothing on the page.
  for (var k = 0; k < divs.length; k++) {
    var h0 = parseInt(divs[k].getAttribute("data-height"), 10);
    if (h0 > 0) {
      divs[k].style.height = h0 + "px";
    }
    var table = document.getElementById(divs[k].id + "-data");
    if (table && table.tagName === "DETAILS") {
      table.open = false;
    }
  }
  var libURL = new URL("echarts.min.js", me.src).href;
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
    return chart;
  }

  // near holds the charts that came near the viewport, in page order;
  // only those are drawn, now and when the theme changes.
  var near = [];

  function drawNear() {
    drawn.forEach(function (c) { c.dispose(); });
    drawn = [];
    near.forEach(function (div) {
      var c = draw(div);
      if (c) {
        drawn.push(c);
      }
    });
  }

  function drawOne(div) {
    near.push(div);
    var c = draw(div);
    if (c) {
      drawn.push(c);
    }
  }

  // queue holds the charts that came near and wait to be drawn. They are
  // drawn one per task, after the library has loaded, so that the page
  // stays responsive between two charts.
  var queue = [];
  var loading = false;
  var scheduled = false;

  function drain() {
    scheduled = false;
    var div = queue.shift();
    if (div && near.indexOf(div) < 0) {
      drawOne(div);
    }
    if (queue.length > 0) {
      later();
    }
  }

  function later() {
    if (!scheduled) {
      scheduled = true;
      window.setTimeout(drain, 0);
    }
  }

  function start(div) {
    queue.push(div);
    if (window.echarts) {
      later();
      return;
    }
    if (loading) {
      return;
    }
    loading = true;
    var s = document.createElement("script");
    s.src = libURL;
    s.async = true;
    s.onload = later;
    document.head.appendChild(s);
  }

  if ("IntersectionObserver" in window) {
    // A chart within 200 pixels of the viewport starts loading, so that it
    // is drawn by the time the reader scrolls to it, and charts further
    // down cost nothing until then.
    var io = new IntersectionObserver(function (changes) {
      changes.forEach(function (ch) {
        if (ch.isIntersecting) {
          io.unobserve(ch.target);
          start(ch.target);
        }
      });
    }, { rootMargin: "200px 0px" });
    for (var i = 0; i < divs.length; i++) {
      io.observe(divs[i]);
    }
  } else {
    for (var j = 0; j < divs.length; j++) {
      start(divs[j]);
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
    dark.addEventListener("change", drawNear);
  }
})();
