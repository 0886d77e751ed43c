/**
 * Step 3: a sentence broken over list items ("* the user", "* has granted", "* this agent", …)
 * read as one line. Each item alone says nothing and the rules read sentences, so a run of items
 * that continue one sentence — short, no sentence punctuation, each after the first starting in
 * lower case — is joined into a view of its own. A checklist ("- Send invoice", "- Book flights")
 * starts each item anew and stays as it is.
 */
const ITEM = /^[ \t]{0,8}(?:[-*+•▪◦‣]|\d{1,3}[.)])[ \t]+(\S.{0,59})$/u;
const MIN_RUN = 3;
const MAX_LINES = 2000;

export function joinedListFragments(text: string): string | null {
  const runs: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length >= MIN_RUN) runs.push(run.join(' '));
    run = [];
  };
  for (const line of text.split('\n', MAX_LINES)) {
    const item = ITEM.exec(line)?.[1]?.trim();
    if (!item || /[.!?;]$/u.test(item)) {
      flush();
      continue;
    }
    if (run.length > 0 && !/^\p{Ll}/u.test(item)) flush();
    run.push(item);
  }
  flush();
  return runs.length > 0 ? runs.join('.\n') : null;
}
