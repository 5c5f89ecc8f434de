// Variants as one horizontal bar split by their weights, each part labelled with the variant's name and share
// (a list for screen readers: "blue 50 %", "green 50 %").
import { Box, Text } from '@mantine/core';
import { balanceVariants, percent, type Variant } from '../../lib/variants.js';

/** Dark enough for white text at 4.5:1 or more. */
const colours = ['blue.8', 'teal.9', 'grape.8', 'orange.9', 'indigo.8', 'pink.9', 'cyan.9', 'red.9', 'violet.8', 'green.9'];

export function WeightBar({ variants, label = 'Variant weights' }: { variants: Variant[]; label?: string }) {
  const parts = balanceVariants(variants).filter((v) => (v.weight ?? 0) > 0);
  if (parts.length === 0) return null;
  return (
    <Box component="ul" aria-label={label} m={0} p={0} style={{ display: 'flex', listStyle: 'none', borderRadius: 4, overflow: 'hidden', width: '100%' }}>
      {parts.map((variant, index) => {
        const words = `${variant.name} ${percent(variant.weight ?? 0)}`;
        return (
          <Box
            component="li"
            key={variant.name}
            bg={colours[index % colours.length]}
            title={words}
            px={6}
            py={2}
            style={{ flex: `${variant.weight} 1 0`, minWidth: 0 }}
          >
            <Text size="xs" c="white" fw={600} truncate>
              {words}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
