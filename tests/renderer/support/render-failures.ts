import { renderErrorMessages } from '../../../src/shared/messages';

/*
 * A page that crashes shows the route's error fallback instead of itself, and a test that only
 * checks where the router went would still pass. The renderer setup watches every test for the
 * fallback and fails the test that shows it, unless the test is about the fallback.
 */

let observer: MutationObserver | undefined;
let fallbackShown = false;
let fallbackAllowed = false;

const showsFallback = () =>
  [...document.querySelectorAll('h1')].some((heading) => heading.textContent === renderErrorMessages.title);

/** For a test of the error fallback itself: showing it does not fail the test. */
export function allowRenderFallback(): void {
  fallbackAllowed = true;
}

/** Starts watching the document for the fallback; called before each renderer test. */
export function watchForRenderFallback(): void {
  fallbackShown = false;
  fallbackAllowed = false;
  observer?.disconnect();
  observer = new MutationObserver(() => {
    fallbackShown ||= showsFallback();
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
}

/** Stops watching; throws when the fallback showed in a test that did not allow it. */
export function checkNoRenderFallback(): void {
  fallbackShown ||= showsFallback();
  observer?.disconnect();
  observer = undefined;
  if (fallbackShown && !fallbackAllowed)
    throw new Error(
      `A page crashed into the error fallback ('${renderErrorMessages.title}'); its error is logged ` +
        "above as 'Route render failed'. Fix the crash, or call allowRenderFallback() in a test of the fallback.",
    );
}
