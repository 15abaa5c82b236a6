/** A page of the dashboard: draws itself into `app`, with the route's named parameters. */
export type Render = (app: HTMLElement, params: Record<string, string>) => Promise<void>;
