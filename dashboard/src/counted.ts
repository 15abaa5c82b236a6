/** `1 shape`, `2 shapes`, `1,234 bytes`: a count with its noun in the number it takes. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${Math.abs(count) === 1 ? singular : plural}`;
}
