// entry.js is the source of echarts.min.js: the chart library the site
// publishes, built from echarts' core module with only the chart types and
// components that package site/chart writes into its options. A chart type
// or component the options start to use must be added here, and the
// library rebuilt (make echarts); the browser tests fail on a chart that
// draws nothing.
/*! Apache ECharts (https://echarts.apache.org), a custom build: Licensed
 * to the Apache Software Foundation (ASF) under the Apache License, Version
 * 2.0 (http://www.apache.org/licenses/LICENSE-2.0); see
 * node_modules/echarts/LICENSE and NOTICE. */
// The global echarts offers what charts.js (init) and the browser tests
// (getInstanceByDom) use, no more.
export { getInstanceByDom, init } from "echarts/core";
import { use } from "echarts/core";
import { BarChart, HeatmapChart, SankeyChart } from "echarts/charts";
import {
  GridComponent,
  LegendScrollComponent,
  TooltipComponent,
  VisualMapPiecewiseComponent,
} from "echarts/components";
import { CanvasRenderer } from "echarts/renderers";

use([
  BarChart,
  HeatmapChart,
  SankeyChart,
  GridComponent,
  LegendScrollComponent,
  TooltipComponent,
  VisualMapPiecewiseComponent,
  CanvasRenderer,
]);
