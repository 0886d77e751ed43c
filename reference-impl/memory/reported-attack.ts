/**
 * An attack reported, not made: "prompt injection tries to make assistants ignore previous
 * instructions", "phishing mails that try to get the model to reveal its keys". What such a
 * clause says the attack tries to make a model do is material, replaced by a placeholder before
 * the rules read it; the sentence's other words stay.
 */

const REPORTED =
  /(?<![\p{L}])(?:tries|try|trying|tried|attempts?|attempting|attempted|is designed|are designed|was designed|were designed|aims?|aiming)\s+to\s+(?:make|get|trick|convince|force|fool|coerce|manipulate)\s+(?:the\s+|an?\s+|other\s+)?(?:ai\s+)?(?:assistants?|models?|llms?|ai|agents?|chatbots?|bots?|copilots?)\b(?:\s+(?:into|to))?[^.!?\n]{0,100}/giu;

/**
 * What a text another party wrote asked of agents, reported: "a README comment asked agents to run
 * a curl | sh installer; our agent refused". The teller is a thing that carries text (a comment,
 * page, mail, ticket, payload …), never a person the note could be relaying an order from.
 */
const SOURCE_ASKED =
  /(?<![\p{L}])(?:comments?|readmes?|pages?|documents?|docs?|e-?mails?|mails?|messages?|sites?|websites?|files?|issues?|tickets?|payloads?|injections?|strings?|snippets?|results?|pdfs?|posts?|reviews?|prompts?|attackers?)\s+(?:had\s+)?(?:asked|told|instructed|urged|directed|ordered|wanted|tried to get|attempted to get)\s+(?:the\s+|our\s+|an?\s+|its\s+)?(?:ai\s+)?(?:assistants?|models?|llms?|ai|agents?|chatbots?|bots?|copilots?|readers?)\b(?:\s+to)?[^.!?;\n]{0,100}/giu;

export function maskReportedAttacks(text: string): string {
  if (
    !/\b(?:tr(?:y|ies|ied|ying)|attempt|designed|aim|asked|told|instructed|urged|directed|ordered|wanted)/iu.test(text)
  )
    return text;
  return text.replace(REPORTED, ' … ').replace(SOURCE_ASKED, ' … ');
}
