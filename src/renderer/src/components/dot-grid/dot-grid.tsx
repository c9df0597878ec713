import { useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { DotField } from './dot-field';
import { dotGridColors } from './dot-grid-colors';
import { paintDots } from './dot-painter';
import classes from './dot-grid.module.css';

const RESIZE_DEBOUNCE_MS = 150;
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * The decorative, pointer-reactive dot grid: a fixed full-screen canvas behind the
 * page. Everything per frame happens in refs and a requestAnimationFrame loop that runs only
 * while dots move, never through React state.
 */
export function DotGrid() {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const colorsRef = useRef(dotGridColors(scheme));
  const redrawRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    colorsRef.current = dotGridColors(scheme);
    redrawRef.current();
  }, [scheme]);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;

    const field = new DotField();
    const motion = window.matchMedia(REDUCED_MOTION);
    let width = 0;
    let height = 0;
    let frame = 0;
    let lastTime = 0;
    let resizeTimer: ReturnType<typeof setTimeout> | undefined;

    const draw = () => paintDots(context, field, colorsRef.current, width, height);
    const tick = (time: number) => {
      frame = 0;
      const moving = field.step(lastTime ? (time - lastTime) / 1000 : 1 / 60);
      draw();
      // The loop ends itself once every dot is home; the next input starts it again.
      lastTime = moving ? time : 0;
      if (moving && !document.hidden) frame = requestAnimationFrame(tick);
    };
    const wake = () => {
      if (frame === 0 && !document.hidden) frame = requestAnimationFrame(tick);
    };
    const stop = () => {
      cancelAnimationFrame(frame);
      frame = 0;
      lastTime = 0;
    };

    const resize = () => {
      const ratio = window.devicePixelRatio || 1;
      width = window.innerWidth;
      height = window.innerHeight;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      field.resize(width, height);
      draw();
    };
    const onResize = () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(resize, RESIZE_DEBOUNCE_MS);
    };
    const onMotionChange = () => {
      field.setReducedMotion(motion.matches);
      stop();
      draw();
    };
    const onPointerMove = (event: PointerEvent) => {
      if (motion.matches) return;
      field.pointerMove(event.clientX, event.clientY, event.timeStamp);
      wake();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (motion.matches) return;
      field.burst(event.clientX, event.clientY);
      wake();
    };
    const onPointerOut = (event: PointerEvent) => {
      // relatedTarget is null only when the pointer leaves the document itself.
      if (event.relatedTarget !== null || motion.matches) return;
      field.pointerLeave();
      wake();
    };
    const onVisibilityChange = () => {
      if (document.hidden) stop();
      else if (!field.atRest) wake();
    };

    field.setReducedMotion(motion.matches);
    resize();
    redrawRef.current = draw;
    const passive = { passive: true } as const;
    window.addEventListener('resize', onResize, passive);
    window.addEventListener('pointermove', onPointerMove, passive);
    window.addEventListener('pointerdown', onPointerDown, passive);
    document.addEventListener('pointerout', onPointerOut, passive);
    document.addEventListener('visibilitychange', onVisibilityChange);
    motion.addEventListener('change', onMotionChange);
    return () => {
      stop();
      clearTimeout(resizeTimer);
      redrawRef.current = () => undefined;
      window.removeEventListener('resize', onResize);
      window.removeEventListener('pointermove', onPointerMove);
      window.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('pointerout', onPointerOut);
      document.removeEventListener('visibilitychange', onVisibilityChange);
      motion.removeEventListener('change', onMotionChange);
    };
  }, []);

  return <canvas ref={canvasRef} className={classes.canvas} aria-hidden="true" />;
}
