import { useRef } from 'react';
import { AnimatedBackground } from '@/components/animated-background';
import { PRODUCT_NAME } from '@/config/constants';
import { usePrefersReducedMotion } from '@/hooks/use-prefers-reduced-motion';
import { FeaturesSection } from '@/features/landing/components/features-section';
import { HeroSection } from '@/features/landing/components/hero-section';
import { SiteFooter } from '@/features/landing/components/site-footer';
import { SiteHeader } from '@/features/landing/components/site-header';
import { StatsSection } from '@/features/landing/components/stats-section';

export default function LandingRoute() {
  const featuresHeading = useRef<HTMLHeadingElement>(null);
  const reducedMotion = usePrefersReducedMotion();

  const showFeatures = () => {
    const heading = featuresHeading.current;
    if (!heading) return;
    heading.scrollIntoView({ behavior: reducedMotion ? 'auto' : 'smooth', block: 'start' });
    heading.focus({ preventScroll: true });
  };

  return (
    <div className="flex min-h-dvh flex-col overflow-x-clip">
      <title>{`${PRODUCT_NAME} · Supervision des appareils connectés de vos points de vente`}</title>
      <AnimatedBackground />
      <SiteHeader />
      <main className="flex-1">
        <HeroSection onLearnMore={showFeatures} />
        <FeaturesSection headingRef={featuresHeading} />
        <StatsSection />
      </main>
      <SiteFooter />
    </div>
  );
}
