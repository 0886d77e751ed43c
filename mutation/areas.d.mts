/** Types of areas.mjs (plain JS so Stryker's config can load it without a TypeScript loader). */
export interface MutationArea {
  /** Globs Stryker mutates (`!` excludes). */
  readonly mutate: readonly string[];
  /** The test files of the area's test command. */
  readonly tests: string[];
}
export declare const AREAS: Readonly<
  Record<'state' | 'memory' | 'memory-pipeline' | 'telemetry' | 'runs', MutationArea>
>;
export declare function areaFromEnv(env?: NodeJS.ProcessEnv): MutationArea & { readonly name: string };
