/**
 * Narrowest slot (CSS px) a bar's label under the x axis needs to stay clear of its neighbours ('Processing' at
 * the axis font is about 65 px).
 */
export const MIN_LABEL_SLOT_PX = 80;

/**
 * The x-axis labels of a bar chart, or blanks when the bars are too narrow for them (a phone): the labels would
 * run into each other, and the chart's caption already names every bar with its value.
 */
export function axisLabels(labels: readonly string[], chartWidth: number): string[] {
  const slot = chartWidth / Math.max(1, labels.length);
  return slot >= MIN_LABEL_SLOT_PX ? [...labels] : labels.map(() => '');
}
